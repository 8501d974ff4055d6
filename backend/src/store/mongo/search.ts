/**
 * Search in MongoDB without a text index: each animation stores the prefixes of its normalized words
 * (contract/search.ts) in `searchPrefixes`, under a multikey index: every prefix of PREFIX_MIN_LENGTH to
 * PREFIX_MAX characters, and every whole word whatever its length. A query asks for documents holding all
 * its words (`$all`, answered from the index); a word shorter than PREFIX_MIN_LENGTH is looked up as
 * itself, which only whole words are, so "e" finds the word "e" and not every word starting with it. An emoji
 * is stored and looked up whole.
 * Only those are ranked, by the same score the SQLite store and the offline copy use.
 */
import { fieldWords, isEmojiWord, PREFIX_MIN_LENGTH, type Searchable } from '../../../../contract/search'

/** Prefixes longer than this are not stored; a longer query word is looked up by its first characters. */
export const PREFIX_MAX = 20

/** Raised when the stored prefixes change shape; older documents are indexed again at start. */
export const SEARCH_VERSION = 3

/** The fields that keep a document's search prefixes. */
export interface SearchFields {
  searchPrefixes: string[]
  searchVersion: number
}

export function searchFields(item: Searchable): SearchFields {
  const prefixes = new Set<string>()
  const { name, tags, description } = fieldWords(item)
  for (const word of [...name, ...tags, ...description]) {
    prefixes.add(word)
    if (isEmojiWord(word)) continue
    for (let length = PREFIX_MIN_LENGTH; length <= Math.min(word.length, PREFIX_MAX); length++) prefixes.add(word.slice(0, length))
  }
  return { searchPrefixes: [...prefixes], searchVersion: SEARCH_VERSION }
}

/** The filter of query words (normalized): every one must be there. */
export function prefixFilter(words: readonly string[]): { searchPrefixes: { $all: string[] } } {
  return { searchPrefixes: { $all: [...new Set(words.map((word) => (isEmojiWord(word) ? word : word.slice(0, PREFIX_MAX))))] } }
}
