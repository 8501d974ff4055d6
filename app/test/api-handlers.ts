import { http, HttpResponse } from 'msw'
import type { Wumpus } from '../../contract/wumpus'

/** GET /api/wumpuses over the given items, paged like the real server (cursor = next index). */
export function wumpusListHandler(items: Wumpus[], { pageSize = 24 } = {}) {
  const requests: URL[] = []
  const handler = http.get('/api/wumpuses', ({ request }) => {
    const url = new URL(request.url)
    requests.push(url)
    const start = Number(url.searchParams.get('cursor') ?? 0)
    const limit = Number(url.searchParams.get('limit') ?? pageSize)
    const page = items.slice(start, start + Math.min(limit, pageSize))
    const headers: Record<string, string> = { 'X-Total-Count': String(items.length) }
    const next = start + page.length
    if (next < items.length) headers.Link = `</api/wumpuses?limit=${limit}&cursor=${next}>; rel="next"`
    return HttpResponse.json(page, { headers })
  })
  return { handler, requests }
}

export function wumpusDetailHandler(items: Wumpus[]) {
  return http.get('/api/wumpus/:id', ({ params }) => {
    const found = items.find((item) => item._id === params.id)
    if (!found) return HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'Wumpus not found' } }, { status: 404 })
    return HttpResponse.json(found)
  })
}
