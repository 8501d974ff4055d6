import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { server } from '../test/msw-server'
import { ACCESS_TOKEN_KEY, ApiError, apiGetBlob, apiRequestWithHeaders, setUnauthorizedHandler } from './api-client'

const schema = z.object({ ok: z.boolean() })

describe('apiRequestWithHeaders', () => {
  it('returns parsed JSON and the response headers', async () => {
    server.use(http.get('/api/thing', () => HttpResponse.json({ ok: true }, { headers: { 'X-Total-Count': '7' } })))
    const { data, headers } = await apiRequestWithHeaders('/api/thing', schema)
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
    await apiRequestWithHeaders('/api/thing', schema)
    window.localStorage.setItem(ACCESS_TOKEN_KEY, 'abc.def.ghi')
    await apiRequestWithHeaders('/api/thing', schema)
    expect(seen).toEqual([null, 'Bearer abc.def.ghi'])
  })

  it('maps the error shape to an ApiError with status, code and message', async () => {
    server.use(
      http.get('/api/thing', () => HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'No such wumpus' } }, { status: 404 })),
    )
    const error = await apiRequestWithHeaders('/api/thing', schema).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'No such wumpus' })
  })

  it('turns an error without the error shape into BAD_RESPONSE with the status', async () => {
    server.use(http.get('/api/thing', () => new HttpResponse('<html>Bad gateway</html>', { status: 502 })))
    await expect(apiRequestWithHeaders('/api/thing', schema)).rejects.toMatchObject({ status: 502, code: 'BAD_RESPONSE' })
  })

  it('turns a network failure into NETWORK_ERROR', async () => {
    server.use(http.get('/api/thing', () => HttpResponse.error()))
    await expect(apiRequestWithHeaders('/api/thing', schema)).rejects.toMatchObject({
      status: 0,
      code: 'NETWORK_ERROR',
      message: expect.stringMatching(/could not reach the server/i),
    })
  })

  it('refuses a body that does not match the schema', async () => {
    server.use(http.get('/api/thing', () => HttpResponse.json({ ok: 'yes' })))
    await expect(apiRequestWithHeaders('/api/thing', schema)).rejects.toMatchObject({ code: 'BAD_RESPONSE' })
  })

  it('sends a JSON body with its content type', async () => {
    let received: unknown
    server.use(
      http.post('/api/thing', async ({ request }) => {
        received = { type: request.headers.get('Content-Type'), body: await request.json() }
        return HttpResponse.json({ ok: true })
      }),
    )
    await apiRequestWithHeaders('/api/thing', schema, { method: 'POST', body: { name: 'Blob' } })
    expect(received).toEqual({ type: 'application/json', body: { name: 'Blob' } })
  })
})

describe('apiGetBlob', () => {
  it('returns the file bytes', async () => {
    server.use(
      http.get('/api/files/1/a.gif', () => new HttpResponse(new Uint8Array([71, 73, 70]), { headers: { 'Content-Type': 'image/gif' } })),
    )
    const blob = await apiGetBlob('/api/files/1/a.gif')
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(new Uint8Array([71, 73, 70]))
  })
})

describe('401 on a session token', () => {
  afterEach(() => setUnauthorizedHandler(null))

  const unauthenticated = () => HttpResponse.json({ error: { code: 'UNAUTHENTICATED', message: 'Token expired' } }, { status: 401 })

  it('asks the handler for a new token and sends the request again with it, body included', async () => {
    window.localStorage.setItem(ACCESS_TOKEN_KEY, 'old')
    const seen: { authorization: string | null; body: unknown }[] = []
    server.use(
      http.put('/api/user/:email', async ({ request }) => {
        seen.push({ authorization: request.headers.get('Authorization'), body: await request.json() })
        return request.headers.get('Authorization') === 'Bearer old' ? unauthenticated() : HttpResponse.json({ ok: true })
      }),
    )
    const handler = vi.fn(async () => 'new')
    setUnauthorizedHandler(handler)

    await expect(
      apiRequestWithHeaders('/api/user/a@b.co', schema, { method: 'PUT', body: { job: 'Wumpus hunter' } }),
    ).resolves.toMatchObject({ data: { ok: true } })
    expect(handler).toHaveBeenCalledTimes(1)
    expect(seen).toEqual([
      { authorization: 'Bearer old', body: { job: 'Wumpus hunter' } },
      { authorization: 'Bearer new', body: { job: 'Wumpus hunter' } },
    ])
  })

  it('keeps the 401 when the handler cannot renew', async () => {
    window.localStorage.setItem(ACCESS_TOKEN_KEY, 'old')
    let calls = 0
    server.use(
      http.get('/api/thing', () => {
        calls++
        return unauthenticated()
      }),
    )
    setUnauthorizedHandler(async () => null)
    await expect(apiRequestWithHeaders('/api/thing', schema)).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED' })
    expect(calls).toBe(1)
  })

  it('does not renew for requests without a session token or with their own Authorization', async () => {
    server.use(http.put('/api/user/:email', unauthenticated), http.get('/api/thing', unauthenticated))
    const handler = vi.fn(async () => 'new')
    setUnauthorizedHandler(handler)

    await expect(apiRequestWithHeaders('/api/thing', schema)).rejects.toMatchObject({ status: 401 })
    window.localStorage.setItem(ACCESS_TOKEN_KEY, 'old')
    await expect(
      apiRequestWithHeaders('/api/user/a@b.co', schema, { method: 'PUT', headers: { Authorization: 'Bearer firebase' }, body: {} }),
    ).rejects.toMatchObject({ status: 401 })
    expect(handler).not.toHaveBeenCalled()
  })
})
