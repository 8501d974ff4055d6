import type { Context } from 'koa'
import { LINK_HEADER, TOTAL_COUNT_HEADER } from '../../../contract/limits'

/** A list answer's paging headers: its total when known, and the next page's link when there is one. */
export function pageHeaders(page: { total?: number; nextCursor?: string }, nextPath: (cursor: string) => string): Record<string, string> {
  const headers: Record<string, string> = {}
  if (page.total !== undefined) headers[TOTAL_COUNT_HEADER] = String(page.total)
  if (page.nextCursor) headers[LINK_HEADER] = `<${nextPath(page.nextCursor)}>; rel="next"`
  return headers
}

/** Sets a list answer's paging headers (pageHeaders). */
export function setPageHeaders(ctx: Context, page: { total?: number; nextCursor?: string }, nextPath: (cursor: string) => string): void {
  ctx.set(pageHeaders(page, nextPath))
}
