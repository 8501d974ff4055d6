import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { server } from '../test/msw-server'
import { ACCESS_TOKEN_KEY, ApiError, setUnauthorizedHandler } from './api-client'
import { uploadFile, uploadImage } from './upload'

const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

function pngFile(name = 'me.png') {
  return new File([PNG_BYTES], name, { type: 'image/png' })
}

describe('uploadImage', () => {
  it('posts the file as multipart field "file" with the bearer token and answers the url', async () => {
    window.localStorage.setItem(ACCESS_TOKEN_KEY, 'abc.def.ghi')
    const seen: { auth?: string | null; contentType?: string | null; file?: { name: string; type: string; bytes: number[] } } = {}
    server.use(
      http.post('/api/uploads/image', async ({ request }) => {
        seen.auth = request.headers.get('Authorization')
        seen.contentType = request.headers.get('Content-Type')
        const file = (await request.formData()).get('file') as File
        seen.file = { name: file.name, type: file.type, bytes: [...new Uint8Array(await file.arrayBuffer())] }
        return HttpResponse.json({ url: '/api/files/0123456789abcdef01234567/me.png' }, { status: 201 })
      }),
    )
    const progress: number[] = []

    const result = await uploadImage(pngFile(), (fraction) => progress.push(fraction))

    expect(result).toEqual({ url: '/api/files/0123456789abcdef01234567/me.png' })
    expect(seen).toEqual({
      auth: 'Bearer abc.def.ghi',
      contentType: expect.stringMatching(/^multipart\/form-data; boundary=/),
      file: { name: 'me.png', type: 'image/png', bytes: [...PNG_BYTES] },
    })
    expect(progress.at(-1)).toBe(1)
  })

  it('maps the error shape to an ApiError', async () => {
    server.use(
      http.post('/api/uploads/image', () =>
        HttpResponse.json({ error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Only png, gif, jpeg and webp images' } }, { status: 415 }),
      ),
    )
    const error = await uploadImage(pngFile()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Only png, gif, jpeg and webp images' })
  })

  it('explains a 413 that comes without the error shape', async () => {
    server.use(http.post('/api/uploads/image', () => new HttpResponse('Request Entity Too Large', { status: 413 })))
    await expect(uploadImage(pngFile())).rejects.toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: 'This image is too large.',
    })
  })

  it('refuses a success answer without a url', async () => {
    server.use(http.post('/api/uploads/image', () => HttpResponse.json({ ok: true }, { status: 201 })))
    await expect(uploadImage(pngFile())).rejects.toMatchObject({ code: 'BAD_RESPONSE' })
  })

  it('turns a network failure into NETWORK_ERROR', async () => {
    server.use(http.post('/api/uploads/image', () => HttpResponse.error()))
    await expect(uploadImage(pngFile())).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' })
  })

  it('does not send anything when already aborted', async () => {
    let requests = 0
    server.use(
      http.post('/api/uploads/image', () => {
        requests += 1
        return HttpResponse.json({ url: '/x' }, { status: 201 })
      }),
    )
    const controller = new AbortController()
    controller.abort(new DOMException('stop', 'AbortError'))
    await expect(uploadImage(pngFile(), undefined, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    })
    expect(requests).toBe(0)
  })
})

describe('uploadFile', () => {
  it('posts to the given path and checks the answer with the given schema', async () => {
    let seenPath = ''
    server.use(
      http.post('/api/uploads/animation', ({ request }) => {
        seenPath = new URL(request.url).search
        return HttpResponse.json({ id: 'f1', size: 3 }, { status: 201 })
      }),
    )
    const schema = z.object({ id: z.string(), size: z.number() })

    await expect(uploadFile('/api/uploads/animation?format=gif', pngFile('a.gif'), schema)).resolves.toEqual({ id: 'f1', size: 3 })
    expect(seenPath).toBe('?format=gif')

    server.use(http.post('/api/uploads/animation', () => HttpResponse.json({ id: 'f1' }, { status: 201 })))
    await expect(uploadFile('/api/uploads/animation', pngFile(), schema)).rejects.toMatchObject({ code: 'BAD_RESPONSE' })
  })

  it('names the kind of file in errors that come without the error shape', async () => {
    server.use(http.post('/api/uploads/animation', () => new HttpResponse('Unsupported', { status: 415 })))
    await expect(uploadFile('/api/uploads/animation', pngFile(), z.unknown(), undefined, { kind: 'GIF' })).rejects.toMatchObject({
      status: 415,
      message: 'This file is not a supported GIF.',
    })
  })
})

describe('an upload with an expired session token', () => {
  afterEach(() => setUnauthorizedHandler(null))

  it('renews the session through the API client and sends the file again', async () => {
    window.localStorage.setItem(ACCESS_TOKEN_KEY, 'expired.token.x')
    const seen: { auth: string | null; hasFile: boolean }[] = []
    server.use(
      http.post('/api/uploads/image', async ({ request }) => {
        const auth = request.headers.get('Authorization')
        seen.push({ auth, hasFile: (await request.formData()).has('file') })
        if (auth !== 'Bearer renewed.token.y') {
          return HttpResponse.json({ error: { code: 'UNAUTHENTICATED', message: 'Token expired' } }, { status: 401 })
        }
        return HttpResponse.json({ url: '/api/files/0123456789abcdef01234567/me.png' }, { status: 201 })
      }),
    )
    const renew = vi.fn(async () => 'renewed.token.y')
    setUnauthorizedHandler(renew)
    const progress: number[] = []

    await expect(uploadImage(pngFile(), (fraction) => progress.push(fraction))).resolves.toEqual({
      url: '/api/files/0123456789abcdef01234567/me.png',
    })
    expect(renew).toHaveBeenCalledTimes(1)
    expect(seen).toEqual([
      { auth: 'Bearer expired.token.x', hasFile: true },
      { auth: 'Bearer renewed.token.y', hasFile: true },
    ])
    expect(progress.at(-1)).toBe(1)
  })

  it('keeps the 401 when the session cannot be renewed', async () => {
    window.localStorage.setItem(ACCESS_TOKEN_KEY, 'expired.token.x')
    server.use(
      http.post('/api/uploads/image', () =>
        HttpResponse.json({ error: { code: 'UNAUTHENTICATED', message: 'Token expired' } }, { status: 401 }),
      ),
    )
    setUnauthorizedHandler(async () => null)
    await expect(uploadImage(pngFile())).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED' })
  })
})
