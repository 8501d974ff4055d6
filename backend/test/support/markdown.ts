import { readFileSync } from 'node:fs'
import path from 'node:path'

/** The repository's root folder. */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../../..')

/** A text file of the repository (`docs/rest-api.md`), read as UTF-8. */
export function repoFile(relative: string): string {
  return readFileSync(path.join(REPO_ROOT, relative), 'utf8')
}

/**
 * The text under a heading (`## Configuration`), up to the next heading of the same or a higher level;
 * throws when the heading is missing, so a renamed section fails the tests that read it.
 */
export function section(markdown: string, heading: string): string {
  const level = /^#+/.exec(heading)?.[0].length ?? 0
  const lines = markdown.split('\n')
  const headings = headingLines(lines)
  const start = headings.find((i) => lines[i]!.trim() === heading)
  if (start === undefined) throw new Error(`No section "${heading}"`)
  const end = headings.find((i) => i > start && new RegExp(`^#{1,${level}} `).test(lines[i]!))
  return lines.slice(start + 1, end).join('\n')
}

/** The indexes of the heading lines, leaving out lines in fenced code blocks (a shell comment is no heading). */
function headingLines(lines: string[]): number[] {
  const found: number[] = []
  let fenced = false
  lines.forEach((line, i) => {
    if (line.trimStart().startsWith('```')) fenced = !fenced
    else if (!fenced && /^#{1,6} /.test(line)) found.push(i)
  })
  return found
}

/** The cells of every body row of the Markdown tables in a text (header and separator rows left out). */
export function tableRows(markdown: string): string[][] {
  const rows: string[][] = []
  let inTable = false
  for (const line of markdown.split('\n')) {
    const row = line.trim()
    if (!row.startsWith('|')) {
      inTable = false
      continue
    }
    // The first row of a table is its header; the second, its separator (| --- |).
    if (!inTable) {
      inTable = true
      continue
    }
    if (/^\|[\s:|-]+\|$/.test(row)) continue
    rows.push(splitCells(row))
  }
  return rows
}

/** A table row's cells, split at its pipes; an escaped pipe (`\|`, also in code spans, as GitHub wants it) is text. */
function splitCells(row: string): string[] {
  return row
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((cell) => cell.replace(/\\\|/g, '|').trim())
}

/** The code spans of a cell: `GET /api/tags`, `PORT`. */
export function codeSpans(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!)
}

/** Where a heading's link points (GitHub's rule): lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .replace(/^#+\s*/, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** Every anchor of a Markdown file's headings. */
export function anchorsOf(markdown: string): Set<string> {
  const lines = markdown.split('\n')
  return new Set(headingLines(lines).map((i) => headingAnchor(lines[i]!)))
}
