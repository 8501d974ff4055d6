import { mkdirSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isErrorBody } from '../../../contract/errors'
import { createApp } from '../app'
import { createRouteDeps } from '../composition'
import { loadConfig } from '../config'
import { createLogger } from '../logger'
import { openSqliteStore } from '../store/sqlite/open-sqlite-store'
import { addWumpus, startTestServer, type TestServer } from '../../test/support/test-server'
import { FIREBASE_AUTH_HOSTS } from './middleware'

let server: TestServer
let port: number
beforeAll(async () => {
  server = await startTestServer()
  port = Number(new URL(server.url).port)
  // Enough animations for a list page above the 1 KB compression threshold.
  for (let i = 0; i < 12; i++) await addWumpus(server.store, { name: `Edge Wumpus ${i}` })
})
afterAll(() => server.close())

interface Answer {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
}

function request(options: http.RequestOptions, body?: Buffer | string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, agent: false, ...options }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/**
 * Sends raw bytes on one connection and reads until the server closes it. Like a browser, it does not
 * half-close its side first (Node's server would then end the connection before answering).
 */
function raw(bytes: string | Buffer): Promise<{ text: string; reset: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    let reset = false
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', () => (reset = true))
    socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString(), reset }))
    socket.write(bytes)
  })
}

const expectErrorShape = (body: string) => expect(isErrorBody(JSON.parse(body)), body).toBe(true)

describe('request bodies in a Content-Encoding', () => {
  const post = (encoding: string, body: Buffer) =>
    request(
      {
        method: 'POST',
        path: '/api/uploads/lottie-link',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding, 'content-length': body.length },
      },
      body,
    )

  it('answers 400 in the error shape when the body does not decode', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const answer = await post(encoding, Buffer.from('this is not compressed at all'))
      expect(answer.status, encoding).toBe(400)
      expectErrorShape(answer.body)
    }
  })

  it('answers 415 for an encoding it does not know, and reads a well-formed gzip body', async () => {
    const unknown = await post('snappy', Buffer.from('{}'))
    expect(unknown.status).toBe(415)
    expect(JSON.parse(unknown.body).error.message).toMatch(/Content-Encoding/)
    // A good gzip body is read (and then refused for want of a session: 401, not 400).
    expect((await post('gzip', gzipSync('{"url":"https://example.com/a.json"}'))).status).toBe(401)
  })
})

describe('response encodings', () => {
  it('sends an uncompressed answer when the client refuses every coding, identity included', async () => {
    const answer = await request({ path: '/api/wumpuses?limit=12', headers: { 'accept-encoding': 'identity;q=0' } })
    expect(answer.status).toBe(200)
    expect(answer.headers['content-encoding']).toBeUndefined()
    expect(JSON.parse(answer.body)).toHaveLength(12)
  })

  it('still compresses for clients that accept it', async () => {
    const answer = await request({ path: '/api/wumpuses?limit=12', headers: { 'accept-encoding': 'gzip' } })
    expect(answer.headers['content-encoding']).toBe('gzip')
  })
})

describe('bodies the server did not read', () => {
  it('closes the connection after refusing an unread chunked body, saying so, instead of resetting it', async () => {
    const chunk = 'x'.repeat(64 * 1024)
    const chunks = Array.from({ length: 8 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('')
    const { text, reset } = await raw(
      `POST /api/uploads/lottie-link HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunks}0\r\n\r\n`,
    )
    expect(text).toMatch(/^HTTP\/1\.1 413 /)
    expect(text).toMatch(/\r\nConnection: close\r\n/i)
    expectErrorShape(text.slice(text.indexOf('\r\n\r\n') + 4))
    expect(reset).toBe(false)
  })

  it('does the same for a multipart upload refused part-way (file too large)', async () => {
    const token = await server.sessionToken('edge@example.com')
    const boundary = 'edge-boundary'
    const file = Buffer.alloc(server.config.limits.image + 1024 * 1024, 1)
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ])
    const head = `POST /api/uploads/image HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`
    const { text, reset } = await raw(Buffer.concat([Buffer.from(head), body]))
    expect(text).toMatch(/^HTTP\/1\.1 413 /)
    expectErrorShape(text.slice(text.indexOf('\r\n\r\n') + 4))
    // Either the server read the rest and dropped it (the connection may then stay open) or it says
    // Connection: close; the client gets its answer either way, never a reset.
    expect(reset).toBe(false)
  })

  it('keeps the connection for a body it read in full', async () => {
    const answer = await request(
      { method: 'POST', path: '/api/uploads/lottie-link', headers: { 'content-type': 'application/json', connection: 'keep-alive' } },
      '{}',
    )
    expect(answer.status).toBe(401)
    expect(answer.headers.connection).toBe('keep-alive')
  })
})

describe('requests Node refuses before the app sees them', () => {
  it('answers headers over 16 KB with 431 in the error shape', async () => {
    const { text } = await raw(`GET /api/wumpuses HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)
    expect(text).toMatch(/^HTTP\/1\.1 431 /)
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).error.code).toBe('REQUEST_HEADERS_TOO_LARGE')
  })

  it('answers a URL over 16 KB and malformed HTTP in the error shape', async () => {
    const long = await raw(`GET /api/wumpuses?${'q'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`)
    expect(long.text).toMatch(/^HTTP\/1\.1 431 /)
    const garbage = await raw('THIS IS NOT HTTP\r\n\r\n')
    expect(garbage.text).toMatch(/^HTTP\/1\.1 400 /)
    expectErrorShape(garbage.text.slice(garbage.text.indexOf('\r\n\r\n') + 4))
  })
})

describe('security headers', () => {
  it('lets the page connect only to its own origin and the two Firebase Auth hosts', async () => {
    mkdirSync(server.config.staticDir, { recursive: true })
    writeFileSync(path.join(server.config.staticDir, 'index.html'), '<!doctype html><title>Wumpus</title>')
    const csp = String((await request({ path: '/', headers: { accept: 'text/html' } })).headers['content-security-policy'])
    const connect = /connect-src ([^;]+)/.exec(csp)![1]!.split(' ')
    expect(connect.filter((source) => !source.startsWith('http://127.0.0.1'))).toEqual(["'self'", ...FIREBASE_AUTH_HOSTS])
    expect(FIREBASE_AUTH_HOSTS).toEqual(['https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com'])
  })

  it('sends HSTS in production only', async () => {
    expect((await request({ path: '/api/config' })).headers['strict-transport-security']).toBeUndefined()
    const config = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: server.dataDir,
      STATIC_DIR: server.dataDir,
      JWT_SECRET: 'p'.repeat(40),
      FIREBASE_PROJECT_ID: 'wumpus-prod',
      FIREBASE_API_KEY: 'key',
      LOG_LEVEL: 'silent',
    })
    const store = await openSqliteStore({ dataDir: `${server.dataDir}/production` })
    const app = createApp(
      createRouteDeps({
        config,
        store,
        logger: createLogger('silent'),
        verifyIdToken: async () => {
          throw new Error('unused')
        },
      }),
    )
    const listener = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => listener.once('listening', resolve))
    try {
      const answer = await request({ port: (listener.address() as net.AddressInfo).port, path: '/api/config' })
      expect(answer.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
    } finally {
      listener.close()
      await store.close()
    }
  })
})
