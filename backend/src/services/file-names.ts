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
