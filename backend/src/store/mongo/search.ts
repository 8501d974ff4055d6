/**
 * Search in MongoDB without a text index: each animation stores the prefixes of its normalized words
 * (contract/search.ts) in `searchPrefixes`, under a multikey index: every prefix of PREFIX_MIN_LENGTH to
 * PREFIX_MAX characters, and every whole word whatever its length. A query asks for documents holding all
 * its words (`$all`, answered from the index); a word shorter than PREFIX_MIN_LENGTH is looked up as
 * itself, which only whole words are, so "e" finds the word "e" and not every word starting with it. An emoji
 * is stored and looked up whole.
 * Those candidates are ranked in the database (scoreExpression), by the same score the SQLite store and the
 * offline copy use, from each field's normalized words kept in `searchWords`.
 */
import {
  FIELD_WEIGHT,
  fieldWords,
  isEmojiWord,
  matchesAsPrefix,
  PREFIX_MIN_LENGTH,
  SEARCH_FIELDS,
  type Searchable,
  type SearchField,
} from '../../../../contract/search'

/** Prefixes longer than this are not stored; a longer query word is looked up by its first characters. */
export const PREFIX_MAX = 20

/** Raised when the stored prefixes change shape; older documents are indexed again at start. */
export const SEARCH_VERSION = 4

/** The fields that keep a document's search prefixes. */
export interface SearchFields {
  searchPrefixes: string[]
  /** Each search field's distinct normalized words (contract/search.ts fieldWords), which ranking reads. */
  searchWords: Record<SearchField, string[]>
  searchVersion: number
}

export function searchFields(item: Searchable): SearchFields {
  const prefixes = new Set<string>()
  const fields = fieldWords(item)
  const { name, tags, description } = fields
  for (const word of [...name, ...tags, ...description]) {
    prefixes.add(word)
    if (isEmojiWord(word)) continue
    for (let length = PREFIX_MIN_LENGTH; length <= Math.min(word.length, PREFIX_MAX); length++) prefixes.add(word.slice(0, length))
  }
  const searchWords = Object.fromEntries(SEARCH_FIELDS.map((field) => [field, [...new Set(fields[field])]])) as Record<
    SearchField,
    string[]
  >
  return { searchPrefixes: [...prefixes], searchWords, searchVersion: SEARCH_VERSION }
}

/** The filter of query words (normalized): every one must be there. */
export function prefixFilter(words: readonly string[]): { searchPrefixes: { $all: string[] } } {
  return { searchPrefixes: { $all: [...new Set(words.map((word) => (isEmojiWord(word) ? word : word.slice(0, PREFIX_MAX))))] } }
}

/**
 * An aggregation expression worth contract/search.ts matchScore of the document's `searchWords`: per query
 * word and field, twice the field's weight for a word equal to it, its weight for one it starts (query words
 * that match as prefixes), the words' sum, or 0 when some word matches nowhere.
 */
export function scoreExpression(words: readonly string[]): Record<string, unknown> {
  const wordScores = words.map((word) => {
    const length = [...word].length
    return {
      $add: SEARCH_FIELDS.map((field) => {
        const fieldWordsPath = { $ifNull: [`$searchWords.${field}`, []] }
        const weight = FIELD_WEIGHT[field]
        const prefix = matchesAsPrefix(word)
          ? {
              $cond: [
                { $anyElementTrue: [{ $map: { input: fieldWordsPath, as: 'w', in: { $eq: [{ $substrCP: ['$$w', 0, length] }, word] } } }] },
                weight,
                0,
              ],
            }
          : 0
        return { $cond: [{ $in: [word, fieldWordsPath] }, 2 * weight, prefix] }
      }),
    }
  })
  return { $let: { vars: { scores: wordScores }, in: { $cond: [{ $in: [0, '$$scores'] }, 0, { $sum: '$$scores' }] } } }
}
