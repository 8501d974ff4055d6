import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { uploadResponseSchema } from '../../../contract/user'
import { buildGif } from '../media/test-fixtures/gif'
import { stillPng } from '../media/test-fixtures/png'
import { errorBody } from '../../test/support/error-body'
import { startTestServer, type TestServer } from '../../test/support/test-server'
import { safeBaseName } from './uploads'

let server: TestServer
let token: string
beforeAll(async () => {
  server = await startTestServer({ MAX_IMAGE_BYTES: '20000' })
  token = await server.sessionToken('uploader@example.com')
})
afterAll(() => server.close())

function upload(files: { field?: string; name: string; bytes: Uint8Array; type?: string }[], auth = token) {
  const form = new FormData()
  for (const file of files) form.append(file.field ?? 'file', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.name)
  return fetch(`${server.url}/api/uploads/image`, { method: 'POST', body: form, headers: auth ? { authorization: `Bearer ${auth}` } : {} })
}

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status)
  expect(errorBody(await res.json()).error.code).toBe(code)
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
    await expectError(await upload([{ name: 'a.png', bytes }, { name: 'b.png', bytes }]), 400, 'BAD_REQUEST')
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
})

describe('safeBaseName', () => {
  it('keeps letters, digits and plain punctuation, drops paths and markup', () => {
    expect(safeBaseName('Ma photo été.jpeg')).toBe('Ma photo été')
    expect(safeBaseName('../../etc/passwd')).toBe('passwd')
    expect(safeBaseName('C:\\Users\\me\\photo.jpg')).toBe('photo')
    expect(safeBaseName('<img src=x onerror=alert(1)>.png')).toBe('img srcx onerroralert1')
    expect(safeBaseName('.hidden')).toBe('')
  })
})
