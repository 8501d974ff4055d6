import 'fake-indexeddb/auto'
import { clear, keys, set } from 'idb-keyval'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { OFFLINE_COPY_HEADER as OFFLINE_HEADER } from '../lib/offline-copy'
import { apiStoreFor, networkFirstWithStore, storedFileResponse } from './api-fallback'
import { makeWumpus } from '../test/fixtures'
import { offlineStore, STORE_NAMES } from '../lib/local-data/stores'

const ORIGIN = 'http://localhost'
const request = (path: string) => new Request(new URL(path, ORIGIN))
const networkDown = () => Promise.reject(new TypeError('Failed to fetch'))

beforeEach(async () => {
  await Promise.all(STORE_NAMES.map((name) => clear(offlineStore(name))))
})

describe('apiStoreFor', () => {
  it('keeps the API reads each in its own store and nothing else', () => {
    const store = (path: string) => apiStoreFor(new URL(path, ORIGIN))
    expect(store('/api/wumpuses?limit=24&cursor=abc')).toBe('wumpus-pages')
    expect(store('/api/wumpus/65a0000000000000000000aa')).toBe('wumpus-details')
    expect(store('/api/wumpus/65a0000000000000000000aa/stickers')).toBe('wumpus-details')
    expect(store('/api/wumpus/65a0000000000000000000aa/other')).toBeNull()
    expect(store('/api/wumpus?u_email=ada%40example.com&limit=24')).toBe('user-lists')
    expect(store('/api/profile/ada@example.com')).toBe('profiles')
    expect(store('/api/tags?limit=12')).toBe('tag-lists')
    expect(store('/api/emoji?limit=8')).toBe('emoji-lists')
    expect(store('/api/wumpus')).toBeNull()
    expect(store('/api/config')).toBeNull()
    expect(store('/api/admin/ada@example.com')).toBeNull()
    expect(store('/api/files/65a0000000000000000000aa/a.gif')).toBeNull()
    expect(store('/api/packs?limit=24')).toBe('packs')
    expect(store('/api/packs/65a0000000000000000000aa')).toBe('packs')
    // One's own packs: kept with the packs, forgotten at sign-out (personal-data.ts).
    expect(store('/api/me/packs?limit=24')).toBe('packs')
    // ZIPs go straight to disk: never kept.
    expect(store('/api/packs/65a0000000000000000000aa/download/whatsapp')).toBeNull()
  })
})

describe('networkFirstWithStore', () => {
  const page = [{ _id: '1', name: 'Waving Wumpus' }]
  const listHeaders = {
    'Content-Type': 'application/json; charset=utf-8',
    'X-Total-Count': '30',
    Link: '</api/wumpuses?limit=24&cursor=X>; rel="next"',
  }

  it('answers from the network and, when the network fails, with the same body, status and list headers', async () => {
    const online = vi.fn(async () => Response.json(page, { headers: listHeaders }))
    const fresh = await networkFirstWithStore(request('/api/wumpuses?limit=24'), 'wumpus-pages', online)
    expect(await fresh.json()).toEqual(page)
    expect(fresh.headers.get(OFFLINE_HEADER)).toBeNull()

    const offline = await networkFirstWithStore(request('/api/wumpuses?limit=24'), 'wumpus-pages', networkDown)
    expect(offline.status).toBe(200)
    expect(await offline.json()).toEqual(page)
    expect(offline.headers.get('X-Total-Count')).toBe('30')
    expect(offline.headers.get('Link')).toBe(listHeaders.Link)
    expect(offline.headers.get('Content-Type')).toBe('application/json; charset=utf-8')
    expect(offline.headers.get(OFFLINE_HEADER)).toBe('1')
  })

  it('never keeps a list page marked private (sensitive animations a signed-in person chose to see)', async () => {
    const sensitive = [{ _id: '2', name: 'Spicy Wumpus', sensitive: true }]
    const privatePage = async () => Response.json(sensitive, { headers: { ...listHeaders, 'Cache-Control': 'private, no-cache' } })
    expect(await (await networkFirstWithStore(request('/api/wumpuses?limit=24&tag=spicy'), 'wumpus-pages', privatePage)).json()).toEqual(
      sensitive,
    )
    await networkFirstWithStore(request('/api/wumpus?u_email=ada%40example.com&limit=24'), 'user-lists', privatePage)
    const privateCounts = async () => Response.json([{ tag: 'spicy', count: 1 }], { headers: { 'Cache-Control': 'private, no-cache' } })
    await networkFirstWithStore(request('/api/tags?limit=12'), 'tag-lists', privateCounts)
    await networkFirstWithStore(request('/api/emoji?limit=8'), 'emoji-lists', privateCounts)
    expect(await keys(offlineStore('wumpus-pages'))).toEqual([])
    expect(await keys(offlineStore('user-lists'))).toEqual([])
    expect(await keys(offlineStore('tag-lists'))).toEqual([])
    expect(await keys(offlineStore('emoji-lists'))).toEqual([])
    const publicPage = async () => Response.json(page, { headers: { ...listHeaders, 'Cache-Control': 'no-cache' } })
    await networkFirstWithStore(request('/api/wumpuses?limit=24&tag=spicy'), 'wumpus-pages', publicPage)
    expect(await keys(offlineStore('wumpus-pages'))).toHaveLength(1)
  })

  it('never keeps a private remix (its detail, or an answer about it marked no-store); a shared one is kept', async () => {
    const original = makeWumpus(1)
    const remix = makeWumpus(2, { remixOf: original._id, visibility: 'private' })
    const shared = makeWumpus(3, { remixOf: original._id, visibility: 'link' })
    const answer =
      (body: unknown, headers: Record<string, string> = {}) =>
      async () =>
        Response.json(body, { headers })
    for (const wumpus of [original, remix, shared])
      await networkFirstWithStore(request(`/api/wumpus/${wumpus._id}`), 'wumpus-details', answer(wumpus))
    await networkFirstWithStore(
      request(`/api/wumpus/${remix._id}/stickers`),
      'wumpus-details',
      answer([], { 'Cache-Control': 'private, no-store' }),
    )
    expect((await keys(offlineStore('wumpus-details'))).sort()).toEqual([`/api/wumpus/${original._id}`, `/api/wumpus/${shared._id}`])
  })

  it('keeps each URL apart (another cursor is another page)', async () => {
    await networkFirstWithStore(request('/api/wumpuses?limit=24'), 'wumpus-pages', async () => Response.json(page))
    const other = await networkFirstWithStore(request('/api/wumpuses?limit=24&cursor=X'), 'wumpus-pages', networkDown)
    expect(other.status).toBe(503)
  })

  it('answers 503 in the API error shape, saying it is not available offline, when nothing was kept', async () => {
    const response = await networkFirstWithStore(request('/api/wumpus/65a0000000000000000000aa'), 'wumpus-details', networkDown)
    expect(response.status).toBe(503)
    const body = (await response.json()) as { error: { code: string; message: string; details: unknown } }
    expect(body.error.code).toBe('STORE_UNAVAILABLE')
    expect(body.error.message).toMatch(/^This animation is not available offline\./)
    expect(body.error.details).toEqual({ offline: true })
  })

  it('passes server errors through and keeps no copy of them', async () => {
    const notFound = Response.json({ error: { code: 'NOT_FOUND', message: 'No animation with this id' } }, { status: 404 })
    const response = await networkFirstWithStore(request('/api/wumpus/65a0000000000000000000bb'), 'wumpus-details', async () => notFound)
    expect(response.status).toBe(404)
    const later = await networkFirstWithStore(request('/api/wumpus/65a0000000000000000000bb'), 'wumpus-details', networkDown)
    expect(later.status).toBe(503)
  })
})

describe('searching offline', () => {
  const moon = makeWumpus(1, { name: 'Moon Wumpus', description: 'Glows all night', tags: ['night'], downloads: 5 })
  const cafe = makeWumpus(2, { name: 'Café Wumpus', description: 'Sips a latte', tags: ['food'], downloads: 1 })
  const starry = makeWumpus(3, { name: 'Starry Wumpus', description: 'Under the moon', tags: ['night', 'sky'], downloads: 2 })
  const keep = (url: string, body: unknown) =>
    set(
      url,
      { status: 200, body: JSON.stringify(body), headers: {}, storedAt: Date.now() },
      offlineStore(url.startsWith('/api/wumpuses') ? 'wumpus-pages' : 'wumpus-details'),
    )
  const ask = async (path: string) => {
    const response = await networkFirstWithStore(request(path), apiStoreFor(new URL(path, ORIGIN))!, networkDown)
    return { response, body: (await response.json()) as Array<{ _id: string }> }
  }

  beforeEach(async () => {
    await keep('/api/wumpuses?limit=24', [starry, moon])
    await keep(`/api/wumpus/${cafe._id}`, cafe)
  })

  it('answers a search never made online from the kept animations, with the server rules', async () => {
    const { response, body } = await ask('/api/wumpuses?limit=24&q=MOON')
    expect(response.status).toBe(200)
    expect(body.map((item) => item._id)).toEqual([moon._id, starry._id])
    expect(response.headers.get('X-Total-Count')).toBe('2')
    expect(response.headers.get(OFFLINE_HEADER)).toBe('1')
    expect(response.headers.get('Link')).toBeNull()

    expect((await ask('/api/wumpuses?limit=24&q=cafe')).body.map((item) => item._id)).toEqual([cafe._id])
    expect((await ask('/api/wumpuses?limit=24&tag=Night&sort=popular')).body.map((item) => item._id)).toEqual([moon._id, starry._id])
    expect((await ask('/api/wumpuses?limit=24&sort=new')).body.map((item) => item._id)).toEqual([starry._id, cafe._id, moon._id])
    const none = await ask('/api/wumpuses?limit=24&q=zebra')
    expect(none.body).toEqual([])
    expect(none.response.headers.get('X-Total-Count')).toBe('0')
  })

  it('does not keep search answers (typing would pile them up), but keeps tag and order lists', async () => {
    const online = async () => Response.json([moon], { headers: { 'X-Total-Count': '1' } })
    await networkFirstWithStore(request('/api/wumpuses?limit=24&q=glow'), 'wumpus-pages', online)
    await networkFirstWithStore(request('/api/wumpuses?limit=24&tag=night&sort=popular'), 'wumpus-pages', online)
    const kept = await keys(offlineStore('wumpus-pages'))
    expect(kept).toContain('/api/wumpuses?limit=24&tag=night&sort=popular')
    expect(kept).not.toContain('/api/wumpuses?limit=24&q=glow')
  })

  it('prefers the answer kept for that very URL, and does not make up later pages', async () => {
    await keep('/api/wumpuses?limit=24&q=moon', [starry])
    expect((await ask('/api/wumpuses?limit=24&q=moon')).body.map((item) => item._id)).toEqual([starry._id])
    expect((await ask('/api/wumpuses?limit=24&q=moon&cursor=abc')).response.status).toBe(503)
  })

  it('counts the tags of the kept animations when the tag list was never kept', async () => {
    const { response, body } = await ask('/api/tags?limit=2')
    expect(body).toEqual([
      { tag: 'night', count: 2 },
      { tag: 'food', count: 1 },
    ])
    expect(response.headers.get('X-Total-Count')).toBe('3')
  })

  it('counts the emoji of the kept animations, with their names, when the emoji list was never kept', async () => {
    const wave = { char: '👋', name: 'waving hand', shortcode: 'wave' }
    const waveToned = { char: '👋🏽', name: 'waving hand: medium skin tone', shortcode: 'wave' }
    const moonFace = { char: '🌝', name: 'full moon face' }
    const heart = { char: '❤️', name: 'red heart', shortcode: 'heart' }
    await keep('/api/wumpuses?limit=24', [
      { ...starry, emoji: [moonFace, wave] },
      { ...moon, emoji: [moonFace, heart] },
    ])
    await keep(`/api/wumpus/${cafe._id}`, { ...cafe, emoji: [heart, waveToned] })
    const { response, body } = await ask('/api/emoji?limit=3')
    expect(response.status).toBe(200)
    // Most used first, then by character as the server orders them; a skin tone is its own emoji.
    expect(body).toEqual([
      { ...heart, count: 2 },
      { ...moonFace, count: 2 },
      { ...wave, count: 1 },
    ])
    expect(response.headers.get('X-Total-Count')).toBe('4')
    expect(response.headers.get(OFFLINE_HEADER)).toBe('1')
  })

  it('answers an empty emoji list when the kept animations have none (copies kept before emoji existed)', async () => {
    const { emoji: _, ...old } = moon
    await keep('/api/wumpuses?limit=24', [old])
    const { response, body } = await ask('/api/emoji?limit=8')
    expect(response.status).toBe(200)
    expect(body).toEqual([])
    expect(response.headers.get('X-Total-Count')).toBe('0')
  })

  it('prefers the emoji list kept online to one counted on the device', async () => {
    const online = [{ char: '👋', name: 'waving hand', shortcode: 'wave', count: 7 }]
    await networkFirstWithStore(request('/api/emoji?limit=8'), 'emoji-lists', async () =>
      Response.json(online, { headers: { 'X-Total-Count': '12' } }),
    )
    const { response, body } = await ask('/api/emoji?limit=8')
    expect(body).toEqual(online)
    expect(response.headers.get('X-Total-Count')).toBe('12')
  })

  it('lists the public packs saved on this device when the packs list was never loaded: none is an empty list, not an error', async () => {
    const none = await ask('/api/packs?limit=24')
    expect(none.response.status).toBe(200)
    expect(none.response.headers.get(OFFLINE_HEADER)).toBe('1')
    expect(none.body).toEqual([])

    const pack = (id: string, visibility: string) => ({ id, name: `Pack ${id}`, visibility, items: [], wumpusIds: [] })
    await set('p1', { pack: pack('p1', 'public'), savedAt: 1, addedStickerIds: [] }, offlineStore('saved-packs'))
    await set('p2', { pack: pack('p2', 'link'), savedAt: 2, addedStickerIds: [] }, offlineStore('saved-packs'))
    await set('p3', { pack: pack('p3', 'public'), savedAt: 3, addedStickerIds: [] }, offlineStore('saved-packs'))
    const saved = await ask('/api/packs?limit=24')
    expect((saved.body as unknown as { id: string }[]).map((item) => item.id)).toEqual(['p3', 'p1'])
    expect(saved.response.headers.get('X-Total-Count')).toBe('2')
    // One pack that was never kept still says so.
    const one = await ask('/api/packs/65a0000000000000000000aa')
    expect(one.response.status).toBe(503)
  })

  it('still says a search is not available offline when nothing was kept', async () => {
    await Promise.all(STORE_NAMES.map((name) => clear(offlineStore(name))))
    expect((await ask('/api/wumpuses?limit=24&q=moon')).response.status).toBe(503)
    expect((await ask('/api/tags?limit=12')).response.status).toBe(503)
    const emoji = await ask('/api/emoji?limit=8')
    expect(emoji.response.status).toBe(503)
    expect(emoji.body).toMatchObject({
      error: { message: 'The emoji are not available offline yet. Connect to the internet to load them.' },
    })
  })
})

describe('storedFileResponse', () => {
  it('serves a kept file byte for byte with its own type, looked up by URL path', async () => {
    const bytes = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0, 255])
    const blob = await new Response(bytes, { headers: { 'Content-Type': 'image/gif' } }).blob()
    await set('/api/files/65a0000000000000000000aa/spinning%20wumpus%20(v2).gif', blob, offlineStore('files'))

    const response = await storedFileResponse(`${ORIGIN}/api/files/65a0000000000000000000aa/spinning%20wumpus%20(v2).gif?download=1`)
    expect(response?.status).toBe(200)
    expect(response?.headers.get('Content-Type')).toBe('image/gif')
    expect(response?.headers.get('Content-Length')).toBe(String(bytes.length))
    expect(new Uint8Array(await response!.arrayBuffer())).toEqual(bytes)
  })

  it('answers nothing for a file that was never kept', async () => {
    expect(await storedFileResponse(`${ORIGIN}/api/files/65a0000000000000000000aa/other.gif`)).toBeUndefined()
  })
})
