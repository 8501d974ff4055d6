import { readdir } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { MAX_MULTIPART_FIELDS_BYTES, MAX_PENDING_IMAGES, MAX_PROFILE_IMAGE_FRAMES } from '../../../contract/limits'
import { uploadResponseSchema } from '../../../contract/user'
import { lottieBytes } from '../../test/fixtures/lottie'
import { buildGif } from '../../test/fixtures/gif'
import { stillPng } from '../../test/fixtures/png'
import { errorBody, expectError } from '../../test/support/error-body'
import { startTestServer, type TestServer } from '../../test/support/test-server'
import { uploadTempDir } from '../http/multipart'

let server: TestServer
let token: string
beforeAll(async () => {
  server = await startTestServer({ MAX_IMAGE_BYTES: '20000' })
  token = await server.sessionToken('uploader@example.com')
})
afterAll(() => server.close())

function upload(files: { field?: string; name: string; bytes: Uint8Array; type?: string }[], auth = token) {
  const form = new FormData()
  for (const file of files)
    form.append(file.field ?? 'file', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.name)
  return fetch(`${server.url}/api/uploads/image`, { method: 'POST', body: form, headers: auth ? { authorization: `Bearer ${auth}` } : {} })
}

describe('POST /api/uploads/image', () => {
  it('stores an image judged by its bytes and serves it at the answered URL', async () => {
    const bytes = stillPng(4, 4)
    const res = await upload([{ name: 'My Photo.PNG', bytes, type: 'image/png' }])
    expect(res.status).toBe(201)
    const { url } = uploadResponseSchema.parse(await res.json())
    expect(url).toMatch(/^\/api\/files\/[0-9a-f]{24}\/My%20Photo\.png$/)
    const served = await fetch(server.url + url)
    expect(served.headers.get('content-type')).toBe('image/png')
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes)
  })

  it('names the file after what its bytes are, not what it claims', async () => {
    const res = await upload([{ name: 'avatar.png', bytes: buildGif(), type: 'image/png' }])
    const { url } = uploadResponseSchema.parse(await res.json())
    expect(url).toMatch(/\/avatar\.gif$/)
    expect((await fetch(server.url + url)).headers.get('content-type')).toBe('image/gif')
  })

  it('refuses a file that is not an image, whatever its name, with 415', async () => {
    const html = new TextEncoder().encode('<html><script>alert(1)</script></html>')
    await expectError(await upload([{ name: 'photo.png', bytes: html, type: 'image/png' }]), 415, 'UNSUPPORTED_MEDIA_TYPE')
  })

  it('refuses a truncated image with 400', async () => {
    await expectError(await upload([{ name: 'cut.png', bytes: stillPng(4, 4).slice(0, 40) }]), 400, 'BAD_REQUEST')
  })

  it('refuses a file above the limit with 413', async () => {
    const big = new Uint8Array(30_000)
    big.set(stillPng(4, 4))
    await expectError(await upload([{ name: 'big.png', bytes: big }]), 413, 'PAYLOAD_TOO_LARGE')
  })

  it('refuses anything but one file in the "file" field', async () => {
    const bytes = stillPng(2, 2)
    await expectError(await upload([{ field: 'photo', name: 'a.png', bytes }]), 400, 'BAD_REQUEST')
    await expectError(
      await upload([
        { name: 'a.png', bytes },
        { name: 'b.png', bytes },
      ]),
      400,
      'BAD_REQUEST',
    )
  })

  it('refuses a body that is not multipart with 415', async () => {
    const res = await fetch(`${server.url}/api/uploads/image`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    })
    await expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE')
  })

  it('needs a signed-in user', async () => {
    await expectError(await upload([{ name: 'a.png', bytes: stillPng(2, 2) }], ''), 401, 'UNAUTHENTICATED')
  })

  it('refuses a profile image with too many frames, or too many pixels in all, as TOO_LARGE', async () => {
    const frames = (count: number) => Array.from({ length: count }, () => ({ delayCs: 2 }))
    const longGif = buildGif({ width: 2, height: 2, frames: frames(MAX_PROFILE_IMAGE_FRAMES + 1) })
    const res = await upload([{ name: 'long.gif', bytes: longGif }])
    expect(res.status).toBe(400)
    expect(errorBody(await res.json()).error.details).toMatchObject({ mediaCode: 'TOO_LARGE', frames: MAX_PROFILE_IMAGE_FRAMES + 1 })
    // 4,000 x 4,000 in 3 frames is 48 megapixels to decode, in a tiny file (the frames are empty).
    const bigGif = buildGif({
      width: 4000,
      height: 4000,
      frames: [
        { width: 1, height: 1 },
        { width: 1, height: 1 },
        { width: 1, height: 1 },
      ],
    })
    const big = await upload([{ name: 'big.gif', bytes: bigGif }])
    expect(errorBody(await big.json()).error.details).toMatchObject({ mediaCode: 'TOO_LARGE', pixels: 48_000_000 })
    expect(
      (await upload([{ name: 'ok.gif', bytes: buildGif({ width: 2, height: 2, frames: frames(MAX_PROFILE_IMAGE_FRAMES) }) }])).status,
    ).toBe(201)
  })

  it('keeps at most a handful of unused uploads per user: older unused ones make room, the photo in use stays', async () => {
    const email = 'collector@example.com'
    await server.store.users.upsert(email, { user_name: 'Collector' })
    const auth = await server.sessionToken(email)
    const urls: string[] = []
    for (let i = 0; i < MAX_PENDING_IMAGES + 3; i++) {
      const res = await upload([{ name: `p${i}.png`, bytes: stillPng(2, 2) }], auth)
      urls.push(uploadResponseSchema.parse(await res.json()).url)
      if (i === 0)
        expect(
          (
            await fetch(`${server.url}/api/user/${email}`, {
              method: 'PUT',
              headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
              body: JSON.stringify({ photo: urls[0] }),
            })
          ).status,
        ).toBe(200)
    }
    const kept = await Promise.all(urls.map(async (url) => (await fetch(server.url + url)).status))
    // The photo in use, then the newest MAX_PENDING_IMAGES.
    expect(kept).toEqual([200, 404, 404, ...Array(MAX_PENDING_IMAGES).fill(200)])
    expect(await server.store.files.listByOwner(email, 'image')).toHaveLength(MAX_PENDING_IMAGES + 1)
  })
})

describe('multipart limits and temp files', () => {
  const tempFiles = () => readdir(uploadTempDir(server.config))

  it('refuses text fields above a few KB in all with 413', async () => {
    await server.store.users.upsert('admin-fields@example.com', { role: 'admin' })
    const admin = await server.sessionToken('admin-fields@example.com')
    const form = new FormData()
    form.append('name', 'Big Fields')
    form.append('description', 'x'.repeat(MAX_MULTIPART_FIELDS_BYTES))
    form.append('lottie', new Blob([new Uint8Array(lottieBytes())]), 'a.json')
    const res = await fetch(`${server.url}/api/wumpuses`, { method: 'POST', body: form, headers: { authorization: `Bearer ${admin}` } })
    await expectError(res, 413, 'PAYLOAD_TOO_LARGE')
  })

  it('removes the temp file of every upload, refused part-way or handled', async () => {
    const big = new Uint8Array(30_000)
    big.set(stillPng(4, 4))
    await expectError(await upload([{ name: 'big.png', bytes: big }]), 413, 'PAYLOAD_TOO_LARGE')
    await expectError(await upload([{ name: 'cut.png', bytes: stillPng(4, 4).slice(0, 40) }]), 400, 'BAD_REQUEST')
    expect((await upload([{ name: 'fine.png', bytes: stillPng(4, 4) }])).status).toBe(201)
    await vi.waitFor(async () => expect(await tempFiles()).toEqual([]), { timeout: 10_000 })
  })
})
