import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { errorBody } from '../../test/support/error-body'
import { startTestServer, type TestServer } from '../../test/support/test-server'
import type { StoredFile } from '../store/port'
import { contentDisposition } from '../http/content-disposition'

let server: TestServer
let gif: StoredFile
const gifBytes = new Uint8Array([...Buffer.from('GIF89a'), ...randomBytes(2000)])

beforeAll(async () => {
  server = await startTestServer()
  gif = await server.store.files.put({ bytes: gifBytes, contentType: 'image/gif', filename: 'Wävy wumpus.gif' })
})
afterAll(() => server.close())

const get = (path: string, init?: RequestInit) => fetch(server.url + path, init)

describe('GET /api/files/:id/:name', () => {
  it('serves the exact bytes with the exact type, nosniff, an ETag and long-lived caching', async () => {
    const res = await get(`/api/files/${gif.id}/${encodeURIComponent(gif.filename)}`)
    expect(res.status).toBe(200)
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(gifBytes)
    expect(res.headers.get('content-type')).toBe('image/gif')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('etag')).toBe(`"${gif.sha256}"`)
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(res.headers.get('content-disposition')).toMatch(/^inline;/)
  })

  it('streams a large file from the store with its exact length, never reading it whole', async () => {
    const bytes = new Uint8Array(randomBytes(3 * 1024 * 1024))
    const big = await server.store.files.put({ bytes, contentType: 'image/gif', filename: 'big.gif' })
    const read = vi.spyOn(server.store.files, 'read')
    const res = await get(`/api/files/${big.id}/big.gif`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-length')).toBe(String(bytes.length))
    expect(res.headers.get('etag')).toBe(`"${big.sha256}"`)
    expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), Buffer.from(bytes))).toBe(0)
    expect(read).not.toHaveBeenCalled()
    read.mockRestore()
  })

  it('answers 304 without a body when the ETag matches', async () => {
    const res = await get(`/api/files/${gif.id}`, { headers: { 'if-none-match': `W/"other", "${gif.sha256}"` } })
    expect(res.status).toBe(304)
    expect((await res.arrayBuffer()).byteLength).toBe(0)
  })

  it('answers 200 again when the ETag does not match', async () => {
    const res = await get(`/api/files/${gif.id}`, { headers: { 'if-none-match': '"other"' } })
    expect(res.status).toBe(200)
  })

  it('names the original file on download', async () => {
    const res = await get(`/api/files/${gif.id}/x.gif?download=1`)
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="W_vy wumpus.gif"; filename*=UTF-8''W%C3%A4vy%20wumpus.gif`)
  })

  it('answers 404 in the error shape for unknown and malformed ids', async () => {
    for (const path of ['/api/files/0123456789abcdef01234567/a.gif', '/api/files/..%2F..%2Fetc%2Fpasswd', '/api/files/zz']) {
      const res = await get(path)
      expect(res.status).toBe(404)
      expect(errorBody(await res.json()).error.code).toBe('NOT_FOUND')
    }
  })
})

describe('contentDisposition', () => {
  it('keeps plain names and quotes nothing dangerous', () => {
    expect(contentDisposition('attachment', 'waving-wumpus.gif')).toBe(
      `attachment; filename="waving-wumpus.gif"; filename*=UTF-8''waving-wumpus.gif`,
    )
    expect(contentDisposition('inline', 'a"b\\c.gif')).toBe(`inline; filename="a_b_c.gif"; filename*=UTF-8''a%22b%5Cc.gif`)
  })
})
