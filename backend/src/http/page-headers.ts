import type { Context } from 'koa'
import { LINK_HEADER, TOTAL_COUNT_HEADER } from '../../../contract/limits'

/** A list answer's paging headers: its total when known, and the next page's link when there is one. */
export function setPageHeaders(ctx: Context, page: { total?: number; nextCursor?: string }, nextPath: (cursor: string) => string): void {
  if (page.total !== undefined) ctx.set(TOTAL_COUNT_HEADER, String(page.total))
  if (page.nextCursor) ctx.set(LINK_HEADER, `<${nextPath(page.nextCursor)}>; rel="next"`)
}
