/**
 * Whether an If-None-Match header matches our ETag (weak comparison, RFC 9110 13.1.2).
 * Koa's `ctx.fresh` also gives up when the request says `Cache-Control: no-cache`, which fetch() adds
 * to every conditional request it is handed; an origin server may still answer those with 304.
 */
export function matchesEtag(ifNoneMatch: string, etag: string): boolean {
  if (!ifNoneMatch) return false
  if (ifNoneMatch.trim() === '*') return true
  const bare = (tag: string) => tag.trim().replace(/^W\//, '')
  return ifNoneMatch.split(',').some((tag) => bare(tag) === bare(etag))
}
