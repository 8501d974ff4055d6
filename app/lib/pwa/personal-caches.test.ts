import { describe, expect, it } from 'vitest'
import { forgetPersonalCaches, isKeyedUrl, isPersonalResponse, mayKeepInCache } from './personal-caches'

const ORIGIN = 'http://localhost'
const FILE = `${ORIGIN}/api/files/65a0000000000000000000aa/wave.gif`
const answer = (cacheControl?: string) => new Response('x', { headers: cacheControl ? { 'Cache-Control': cacheControl } : {} })

/** Cache Storage as the service worker sees it, in memory (jsdom has none). */
function memoryCaches(contents: Record<string, Record<string, Response>>): CacheStorage {
  const stores = new Map(Object.entries(contents).map(([name, entries]) => [name, new Map(Object.entries(entries))]))
  const cacheOf = (entries: Map<string, Response>) =>
    ({
      keys: async () => [...entries.keys()].map((url) => new Request(url)),
      match: async (request: Request | string) => entries.get(typeof request === 'string' ? request : request.url)?.clone(),
      delete: async (request: Request | string) => entries.delete(typeof request === 'string' ? request : request.url),
    }) as unknown as Cache
  return {
    keys: async () => [...stores.keys()],
    open: async (name: string) => cacheOf(stores.get(name)!),
  } as unknown as CacheStorage
}

const urlsIn = async (storage: CacheStorage) =>
  Object.fromEntries(
    await Promise.all(
      (await storage.keys()).map(async (name) => [name, (await (await storage.open(name)).keys()).map((request) => request.url)] as const),
    ),
  )

describe('what Cache Storage may keep', () => {
  it('never a file URL with a key, nor an answer marked private or no-store', () => {
    expect(isKeyedUrl(`${FILE}?key=AAAAAAAAAAAAAAAAAAAAAA`)).toBe(true)
    expect(isKeyedUrl(`/api/files/x/wave.gif?download=1&key=A`)).toBe(true)
    expect(isKeyedUrl(FILE)).toBe(false)
    expect(isKeyedUrl(`${FILE}?monkey=1`)).toBe(false)
    for (const value of ['private, no-cache', 'no-store', 'private', 'max-age=60, Private', 'private, no-store'])
      expect(isPersonalResponse(answer(value))).toBe(true)
    for (const value of [undefined, 'public, max-age=31536000, immutable', 'no-cache', 'max-age=0'])
      expect(isPersonalResponse(answer(value))).toBe(false)
    expect(mayKeepInCache(new Request(FILE), answer('public, max-age=31536000, immutable'))).toBe(true)
    expect(mayKeepInCache(new Request(`${FILE}?key=A`), answer('public, max-age=31536000, immutable'))).toBe(false)
    expect(mayKeepInCache(new Request(FILE), answer('private, no-cache'))).toBe(false)
  })

  it('forgets, in every cache, the keyed URLs and the private answers, and keeps the rest', async () => {
    const storage = memoryCaches({
      previews: {
        [FILE]: answer('public, max-age=31536000, immutable'),
        [`${FILE}?key=AAAAAAAAAAAAAAAAAAAAAA`]: answer('public, max-age=31536000, immutable'),
        [`${ORIGIN}/api/files/65a0000000000000000000bb/mine.json`]: answer('private, no-cache'),
      },
      'app-files-1': { [`${ORIGIN}/index.html`]: answer() },
      other: { [`${ORIGIN}/api/me`]: answer('no-store') },
    })
    expect(await forgetPersonalCaches(storage)).toBe(3)
    expect(await urlsIn(storage)).toEqual({ previews: [FILE], 'app-files-1': [`${ORIGIN}/index.html`], other: [] })
    expect(await forgetPersonalCaches(storage)).toBe(0)
  })

  it('does nothing, and never throws, without Cache Storage', async () => {
    expect(await forgetPersonalCaches(undefined)).toBe(0)
    const broken = { keys: () => Promise.reject(new Error('closed')) } as unknown as CacheStorage
    expect(await forgetPersonalCaches(broken)).toBe(0)
  })
})
