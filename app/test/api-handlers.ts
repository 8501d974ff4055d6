import { http, HttpResponse } from 'msw'
import type { StickerExport } from '../../contract/stickers'
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

/**
 * GET /api/wumpus/{id}/stickers from lists by animation id; a list of lists answers them in turn
 * (the last one from then on), like a server that finishes making them.
 */
export function stickersHandler(byId: Record<string, StickerExport[] | StickerExport[][]>) {
  const calls: Record<string, number> = {}
  return http.get('/api/wumpus/:id/stickers', ({ params }) => {
    const id = String(params.id)
    const answers = byId[id]
    if (!answers) return HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'No animation with this id' } }, { status: 404 })
    const n = (calls[id] = (calls[id] ?? 0) + 1)
    const sequence = Array.isArray(answers[0]) ? (answers as StickerExport[][]) : [answers as StickerExport[]]
    return HttpResponse.json(sequence[Math.min(n, sequence.length) - 1])
  })
}
