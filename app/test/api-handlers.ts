import { http, HttpResponse } from 'msw'
import { searchItems, type ListSort } from '../../contract/search'
import type { EmojiCount, TagCount, Wumpus } from '../../contract/wumpus'
import type { StickerExport } from '../../contract/stickers'

/**
 * GET /api/wumpuses over the given items, paged like the real server (cursor = next index), searched
 * with the contract's rules when the request has q, tag or sort (items come newest first).
 */
export function wumpusListHandler(all: Wumpus[], { pageSize = 24 } = {}) {
  const requests: URL[] = []
  const handler = http.get('/api/wumpuses', ({ request }) => {
    const url = new URL(request.url)
    requests.push(url)
    const { q, tag, fits, sort } = Object.fromEntries(url.searchParams) as { q?: string; tag?: string; fits?: string; sort?: ListSort }
    const items = q || tag || fits || sort ? searchItems(all, { q, tag, fits, sort }) : all
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

/** A counted list (most used first) at `path`, honouring limit, with the requests it got. */
function countedListHandler(path: string, entries: unknown[]) {
  const requests: URL[] = []
  const handler = http.get(path, ({ request }) => {
    const url = new URL(request.url)
    requests.push(url)
    const limit = Number(url.searchParams.get('limit') ?? 100)
    return HttpResponse.json(entries.slice(0, limit), { headers: { 'X-Total-Count': String(entries.length) } })
  })
  return { handler, requests }
}

/** GET /api/tags over the given tags (most used first), honouring limit. */
export const tagListHandler = (tags: TagCount[]) => countedListHandler('/api/tags', tags)

/** GET /api/emoji over the given emoji (most used first), honouring limit. */
export const emojiListHandler = (emoji: EmojiCount[]) => countedListHandler('/api/emoji', emoji)

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
