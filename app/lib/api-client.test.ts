import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { server } from '../test/msw-server'
import { ACCESS_TOKEN_KEY, ApiError, apiGetBlob, apiRequest } from './api-client'

const schema = z.object({ ok: z.boolean() })

describe('apiRequest', () => {
  it('returns parsed JSON and the response headers', async () => {
    server.use(http.get('/api/thing', () => HttpResponse.json({ ok: true }, { headers: { 'X-Total-Count': '7' } })))
    const { data, headers } = await apiRequest('/api/thing', schema)
    expect(data).toEqual({ ok: true })
    expect(headers.get('X-Total-Count')).toBe('7')
  })

  it('sends the stored access token as a bearer token, and none when signed out', async () => {
    const seen: (string | null)[] = []
    server.use(
      http.get('/api/thing', ({ request }) => {
        seen.push(request.headers.get('Authorization'))
        return HttpResponse.json({ ok: true })
      }),
    )
    await apiRequest('/api/thing', schema)
    window.localStorage.setItem(ACCESS_TOKEN_KEY, 'abc.def.ghi')
    await apiRequest('/api/thing', schema)
    expect(seen).toEqual([null, 'Bearer abc.def.ghi'])
  })

  it('maps the error shape to an ApiError with status, code and message', async () => {
    server.use(
      http.get('/api/thing', () =>
        HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'No such wumpus' } }, { status: 404 }),
      ),
    )
    const error = await apiRequest('/api/thing', schema).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'No such wumpus' })
  })

  it('turns an error without the error shape into BAD_RESPONSE with the status', async () => {
    server.use(http.get('/api/thing', () => new HttpResponse('<html>Bad gateway</html>', { status: 502 })))
    await expect(apiRequest('/api/thing', schema)).rejects.toMatchObject({ status: 502, code: 'BAD_RESPONSE' })
  })

  it('turns a network failure into NETWORK_ERROR', async () => {
    server.use(http.get('/api/thing', () => HttpResponse.error()))
    await expect(apiRequest('/api/thing', schema)).rejects.toMatchObject({
      status: 0,
      code: 'NETWORK_ERROR',
      message: expect.stringMatching(/could not reach the server/i),
    })
  })

  it('refuses a body that does not match the schema', async () => {
    server.use(http.get('/api/thing', () => HttpResponse.json({ ok: 'yes' })))
    await expect(apiRequest('/api/thing', schema)).rejects.toMatchObject({ code: 'BAD_RESPONSE' })
  })

  it('sends a JSON body with its content type', async () => {
    let received: unknown
    server.use(
      http.post('/api/thing', async ({ request }) => {
        received = { type: request.headers.get('Content-Type'), body: await request.json() }
        return HttpResponse.json({ ok: true })
      }),
    )
    await apiRequest('/api/thing', schema, { method: 'POST', body: { name: 'Blob' } })
    expect(received).toEqual({ type: 'application/json', body: { name: 'Blob' } })
  })
})

describe('apiGetBlob', () => {
  it('returns the file bytes', async () => {
    server.use(
      http.get(
        '/api/files/1/a.gif',
        () => new HttpResponse(new Uint8Array([71, 73, 70]), { headers: { 'Content-Type': 'image/gif' } }),
      ),
    )
    const blob = await apiGetBlob('/api/files/1/a.gif')
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(new Uint8Array([71, 73, 70]))
  })
})
