import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DOWNLOAD_COUNTED_HEADER } from '../../../contract/api-paths'
import { PLATFORMS, type Platform } from '../../../contract/stickers'
import { tagListSchema, wumpusListSchema, wumpusSchema } from '../../../contract/wumpus'
import { expectError } from '../../test/support/error-body'
import { addWumpus, startTestServer, type TestServer } from '../../test/support/test-server'
import type { WumpusRecord } from '../store/port'

let server: TestServer
let moon: WumpusRecord
let moonlight: WumpusRecord
let cafe: WumpusRecord
let plain: WumpusRecord

beforeAll(async () => {
  // Behind a trusted proxy, X-Forwarded-For says who downloads.
  server = await startTestServer({ TRUST_PROXY: 'true' })
  const at = (second: number) => new Date(Date.UTC(2026, 1, 1, 0, 0, second))
  moon = await addWumpus(server.store, {
    name: 'Moon Wumpus',
    description: 'Glowing softly all night',
    tags: ['night', 'calm'],
    createdAt: at(1),
  })
  moonlight = await addWumpus(server.store, {
    name: 'Moonlight Wumpus',
    description: 'Dancing in the moon beams',
    tags: ['night', 'dance'],
    createdAt: at(2),
  })
  cafe = await addWumpus(server.store, {
    name: 'Café Wumpus',
    description: 'Sipping a crème brûlée latte',
    tags: ['food'],
    createdAt: at(3),
  })
  plain = await addWumpus(server.store, { name: 'Plain Wumpus', description: 'Nothing special about it', createdAt: at(4) })
})
afterAll(() => server.close())

/** Stores exports for these platforms as the derived-media service would, made from the record's Lottie. */
async function makeExports(record: WumpusRecord, ready: Platform[]) {
  const exports = PLATFORMS.map((platform) => {
    if (!ready.includes(platform)) return { platform, notes: ['Too big'] }
    const id = randomBytes(12).toString('hex')
    const file = { id, filename: `x.${platform}`, contentType: 'image/png', bytes: 9, width: 320, height: 320, frames: 9, durationMs: 900 }
    return { platform, file, notes: [] }
  })
  const source = record.files.lottie.id
  await server.store.wumpuses.setDerived(record._id, source, { source, version: 1, madeAt: new Date(), exports })
}

const get = (path: string, init?: RequestInit) => fetch(server.url + path, init)
const names = async (res: Response) => wumpusListSchema.parse(await res.json()).map((item) => item.name)

describe('GET /api/wumpuses with q, tag and sort', () => {
  it('ranks a word search, whatever the case and accents, with the matching total', async () => {
    const res = await get('/api/wumpuses?q=MOON')
    expect(await names(res)).toEqual(['Moon Wumpus', 'Moonlight Wumpus'])
    expect(res.headers.get('x-total-count')).toBe('2')
    expect(await names(await get('/api/wumpuses?q=cafe%20creme'))).toEqual(['Café Wumpus'])
    expect(await names(await get(`/api/wumpuses?q=${encodeURIComponent('Brûl')}`))).toEqual(['Café Wumpus'])
    const none = await get('/api/wumpuses?q=zebra')
    expect(await none.json()).toEqual([])
    expect(none.headers.get('x-total-count')).toBe('0')
  })

  it('filters by tag, normalizing it, and combines tag, words and sort', async () => {
    expect(await names(await get('/api/wumpuses?tag=night'))).toEqual(['Moonlight Wumpus', 'Moon Wumpus'])
    expect(await names(await get('/api/wumpuses?tag=Night'))).toEqual(['Moonlight Wumpus', 'Moon Wumpus'])
    expect(await names(await get('/api/wumpuses?tag=night&q=beams'))).toEqual(['Moonlight Wumpus'])
    expect(await names(await get('/api/wumpuses?q=moon&sort=new'))).toEqual(['Moonlight Wumpus', 'Moon Wumpus'])
    expect(await get('/api/wumpuses?tag=nothing').then((res) => res.headers.get('x-total-count'))).toBe('0')
  })

  it('keeps the query in the next-page link, and that link pages on without repeats', async () => {
    const first = await get('/api/wumpuses?q=wumpus&tag=night&sort=new&limit=1')
    const link = first.headers.get('link')!
    expect(link).toMatch(/^<\/api\/wumpuses\?limit=1&cursor=[\w-]+&q=wumpus&tag=night&sort=new>; rel="next"$/)
    const next = /<([^>]+)>/.exec(link)![1]!
    const second = await get(next)
    expect([...(await names(first)), ...(await names(second))]).toEqual(['Moonlight Wumpus', 'Moon Wumpus'])
    expect(second.headers.get('link')).toBeNull()
  })

  it.each([
    ['an unknown sort', '/api/wumpuses?sort=name'],
    ['a tag of one letter', '/api/wumpuses?tag=a'],
    ['a tag with other characters', '/api/wumpuses?tag=a_b'],
    ['a search that is too long', `/api/wumpuses?q=${'a'.repeat(101)}`],
    ['two searches', '/api/wumpuses?q=a&q=b'],
    ['an unknown platform', '/api/wumpuses?fits=myspace'],
    ['a platform in capitals', '/api/wumpuses?fits=Discord'],
    ['half a platform id', '/api/wumpuses?fits=discord-'],
  ])('refuses %s with 400', async (_, path) => {
    await expectError(await get(path), 400, 'BAD_REQUEST')
  })

  it('filters by a platform with a ready export, combined with q, tag and sort, and follows exports as they are made', async () => {
    const fitsDiscord = await get('/api/wumpuses?fits=discord')
    expect(await fitsDiscord.json()).toEqual([])
    expect(fitsDiscord.headers.get('x-total-count')).toBe('0')
    // Exports made in the background move the store's revision, so the cached page above is not answered again.
    await makeExports(moon, ['discord', 'discord-emoji', 'slack'])
    await makeExports(moonlight, ['discord'])
    await makeExports(cafe, ['telegram', 'telegram-emoji'])
    expect(await names(await get('/api/wumpuses?fits=discord'))).toEqual(['Moonlight Wumpus', 'Moon Wumpus'])
    expect(await names(await get('/api/wumpuses?fits=slack&tag=night'))).toEqual(['Moon Wumpus'])
    expect(await names(await get('/api/wumpuses?fits=telegram&q=latte'))).toEqual(['Café Wumpus'])
    expect(await names(await get('/api/wumpuses?fits=telegram&q=moon'))).toEqual([])
    // A platform id with a hyphen is its own: Discord emoji are not Discord stickers.
    expect(await names(await get('/api/wumpuses?fits=discord-emoji'))).toEqual(['Moon Wumpus'])
    expect(await names(await get('/api/wumpuses?fits=telegram-emoji&q=latte'))).toEqual(['Café Wumpus'])
    const first = await get('/api/wumpuses?fits=discord&sort=new&limit=1')
    expect(first.headers.get('x-total-count')).toBe('2')
    const link = first.headers.get('link')!
    expect(link).toMatch(/^<\/api\/wumpuses\?limit=1&cursor=[\w-]+&fits=discord&sort=new>; rel="next"$/)
    expect(await names(await get(/<([^>]+)>/.exec(link)![1]!))).toEqual(['Moon Wumpus'])
    // The list items say what they fit (the offline copy filters on it).
    const [item] = wumpusListSchema.parse(await (await get('/api/wumpuses?fits=slack')).json())
    expect(item!.fits).toEqual(['discord', 'discord-emoji', 'slack'])
  })

  it('refuses a cursor of another order with 400', async () => {
    const newest = await get('/api/wumpuses?limit=1')
    const cursor = new URL(/<([^>]+)>/.exec(newest.headers.get('link')!)![1]!, server.url).searchParams.get('cursor')!
    await expectError(await get(`/api/wumpuses?limit=1&sort=popular&cursor=${cursor}`), 400, 'BAD_REQUEST')
  })
})

describe('GET /api/tags', () => {
  it('lists the tags in use with counts, most used first, with the number of tags', async () => {
    const res = await get('/api/tags')
    expect(res.status).toBe(200)
    expect(tagListSchema.parse(await res.json())).toEqual([
      { tag: 'night', count: 2 },
      { tag: 'calm', count: 1 },
      { tag: 'dance', count: 1 },
      { tag: 'food', count: 1 },
    ])
    expect(res.headers.get('x-total-count')).toBe('4')
    expect(await (await get('/api/tags?limit=1')).json()).toEqual([{ tag: 'night', count: 2 }])
  })

  it('follows edits at once', async () => {
    await server.store.wumpuses.update(plain._id, { tags: ['calm'] })
    expect(tagListSchema.parse(await (await get('/api/tags?limit=2')).json())[0]).toEqual({ tag: 'calm', count: 2 })
    await server.store.wumpuses.update(plain._id, { tags: [] })
    expect(tagListSchema.parse(await (await get('/api/tags?limit=2')).json())[0]).toEqual({ tag: 'night', count: 2 })
  })

  it('refuses a bad limit or an unknown key with 400', async () => {
    await expectError(await get('/api/tags?limit=0'), 400, 'BAD_REQUEST')
    await expectError(await get('/api/tags?sort=name'), 400, 'BAD_REQUEST')
  })
})

describe('download counts', () => {
  const download = (record: WumpusRecord, format: 'gif' | 'apng' | 'lottie', from: string, init: RequestInit = {}) =>
    get(`/api/files/${record.files[format].id}/${record.files[format].filename}?download=1`, {
      ...init,
      headers: { 'x-forwarded-for': from, ...(init.headers as Record<string, string> | undefined) },
    })
  const downloadsOf = async (record: WumpusRecord) => {
    await server.downloads.flush()
    return wumpusSchema.parse(await (await get(`/api/wumpus/${record._id}`)).json()).downloads
  }

  it('counts a download once per visitor and animation, whatever the format and however often', async () => {
    const counted: Array<string | null> = []
    for (const format of ['gif', 'apng', 'lottie', 'gif'] as const) {
      const res = await download(cafe, format, '203.0.113.7')
      expect(res.status).toBe(200)
      expect(res.headers.get('content-disposition')).toMatch(/^attachment;/)
      counted.push(res.headers.get(DOWNLOAD_COUNTED_HEADER))
    }
    expect(await downloadsOf(cafe)).toBe(1)
    // The download that counted names its animation (the app adds it to the count it shows); the others do not.
    expect(counted).toEqual([cafe._id, null, null, null])
    expect((await get(`/api/files/${cafe.files.gif.id}/x.gif`)).headers.get(DOWNLOAD_COUNTED_HEADER)).toBeNull()
    // Another address counts; another address in the same IPv6 /64 does not.
    await download(cafe, 'gif', '203.0.113.8')
    await download(cafe, 'gif', '2001:db8:1:2::10')
    await download(cafe, 'gif', '2001:db8:1:2:ffff::99')
    expect(await downloadsOf(cafe)).toBe(3)
  })

  it('counts a revalidated download (304), and not views of the file', async () => {
    const etag = (await download(moon, 'gif', '198.51.100.1')).headers.get('etag')!
    const again = await download(moon, 'gif', '198.51.100.2', { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    await get(`/api/files/${moon.files.gif.id}/x.gif`, { headers: { 'x-forwarded-for': '198.51.100.3' } })
    await get(`/api/files/${moon.files.gif.id}/x.gif?download=0`, { headers: { 'x-forwarded-for': '198.51.100.4' } })
    expect(await downloadsOf(moon)).toBe(2)
  })

  it('does not count files that belong to no animation', async () => {
    const loose = await server.store.files.put({ bytes: new Uint8Array([1, 2, 3]), contentType: 'image/gif', filename: 'loose.gif' })
    expect((await get(`/api/files/${loose.id}?download=1`)).status).toBe(200)
    const before = wumpusListSchema.parse(await (await get('/api/wumpuses?limit=100')).json()).map((item) => item.downloads)
    await server.downloads.flush()
    const after = wumpusListSchema.parse(await (await get('/api/wumpuses?limit=100')).json()).map((item) => item.downloads)
    expect(after).toEqual(before)
  })

  it('orders sort=popular by the counts, and shows them in the list', async () => {
    for (const address of ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4']) await download(moonlight, 'lottie', address)
    await server.downloads.flush()
    const res = await get('/api/wumpuses?sort=popular')
    const items = wumpusListSchema.parse(await res.json())
    expect(items.map((item) => [item.name, item.downloads])).toEqual([
      ['Moonlight Wumpus', 4],
      ['Café Wumpus', 3],
      ['Moon Wumpus', 2],
      ['Plain Wumpus', 0],
    ])
    expect(await names(await get('/api/wumpuses?q=moon&sort=popular'))).toEqual(['Moonlight Wumpus', 'Moon Wumpus'])
  })
  it('counts a download once, whatever the visitor writes before the address the balancer saw', async () => {
    const forged = ['6.6.6.6', '6.6.6.7', '2001:db8::66', 'anything']
    for (const entry of forged) await download(plain, 'gif', `${entry}, 203.0.113.70`)
    expect(await downloadsOf(plain)).toBe(1)
  })
})
