/**
 * The animation's name as a file name stem: `Waving Wumpus` -> `waving-wumpus`, `Crème brûlée` ->
 * `creme-brulee`; letters of other scripts stay as they are (a remix may be named `Привет, κόσμε`:
 * `привет-κόσμε`), so a name in Cyrillic or Greek does not become a bare `wumpus`.
 */
export function fileStem(name: string): string {
  const stem = name
    .normalize('NFKD')
    // Latin letters lose their accents (é -> e); other scripts keep theirs (й stays й).
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '')
  return stem || 'wumpus'
}

/**
 * The name a file of this animation is downloaded under. A remix's files are called by its name as it is
 * now, so renaming it renames its downloads: its name's stem and the stored name's kind
 * (`waving-back.discord.png` for `waving-wumpus-your-version.discord.png`). Other files keep their stored names.
 */
export function shownFileName(record: { name: string; remix?: unknown }, filename: string): string {
  if (!record.remix) return filename
  const dot = filename.indexOf('.')
  return `${fileStem(record.name)}${dot === -1 ? '' : filename.slice(dot)}`
}

/** The name without its extension, reduced to harmless characters. */
export function safeBaseName(name: string): string {
  return (name.split(/[/\\]/).pop() ?? '')
    .replace(/\.[^.]*$/, '')
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N} ._-]+/gu, '')
    .replace(/^[.\s]+/, '')
    .trim()
    .slice(0, 80)
}

/** The file name at the end of a link's path, decoded; a malformed %-escape leaves it as written. */
export function linkFileName(link: string): string {
  const segment = new URL(link).pathname.split('/').pop() ?? ''
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
