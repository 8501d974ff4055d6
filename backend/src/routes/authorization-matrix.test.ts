import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appRouters } from '../app'
import { buildGif } from '../media/test-fixtures/gif'
import { lottieBytes } from '../media/test-fixtures/lottie'
import { buildApng, stillPng } from '../media/test-fixtures/png'
import { startTestServer, type TestServer } from '../../test/support/test-server'

/**
 * Every endpoint of the app against every kind of caller. A new endpoint without a row here fails the
 * first test, so no route ships without its rule being written down and checked.
 */
type Persona = 'anonymous' | 'unverified' | 'user' | 'otherUser' | 'admin'
const PERSONAS: Persona[] = ['anonymous', 'unverified', 'user', 'otherUser', 'admin']

const USER = 'owner@example.com'
const OTHER = 'other@example.com'
const ADMIN = 'admin@example.com'

let server: TestServer
const tokens: Partial<Record<Persona, string>> = {}

interface Request {
  method: string
  path: string
  body?: unknown
}

type Expected = Record<Persona, number>
const everyone = (status: number): Expected => ({ anonymous: status, unverified: status, user: status, otherUser: status, admin: status })
const signedIn = (status: number): Expected => ({ ...everyone(status), anonymous: 401 })
const adminOnly = (status: number): Expected => ({ anonymous: 401, unverified: 403, user: 403, otherUser: 403, admin: status })

const form = (field: string, bytes: Uint8Array, name: string) => {
  const data = new FormData()
  data.append(field, new Blob([new Uint8Array(bytes)]), name)
  return data
}

async function adminUpload(format: 'gif' | 'apng' | 'lottie', bytes: Uint8Array): Promise<string> {
  const res = await send({ method: 'POST', path: `/api/uploads/animation?format=${format}`, body: form('file', bytes, `f.${format}`) }, 'admin')
  return ((await res.json()) as { id: string }).id
}

/** An animation uploaded by the "user" persona (an admin once, so the files are theirs). */
async function usersWumpus(): Promise<string> {
  await server.store.setRole(USER, 'admin')
  const files = { gif: await uploadAs('user', 'gif', buildGif()), apng: await uploadAs('user', 'apng', buildApng()), lottie: await uploadAs('user', 'lottie', lottieBytes()) }
  const res = await send({ method: 'POST', path: '/api/wumpuses', body: { name: 'Owned Wumpus', description: 'Owned by the user persona', files } }, 'user')
  await server.store.upsertUser(USER, { role: 'user' })
  return ((await res.json()) as { _id: string })._id
}

async function uploadAs(persona: Persona, format: 'gif' | 'apng' | 'lottie', bytes: Uint8Array) {
  const res = await send({ method: 'POST', path: `/api/uploads/animation?format=${format}`, body: form('file', bytes, `f.${format}`) }, persona)
  return ((await res.json()) as { id: string }).id
}

const MATRIX: Record<string, { request: () => Promise<Request>; expected: Expected }> = {
  'GET /health': { request: async () => ({ method: 'GET', path: '/health' }), expected: everyone(200) },
  'GET /ready': { request: async () => ({ method: 'GET', path: '/ready' }), expected: everyone(200) },
  'GET /api/config': { request: async () => ({ method: 'GET', path: '/api/config' }), expected: everyone(200) },
  'GET /api/wumpuses': { request: async () => ({ method: 'GET', path: '/api/wumpuses' }), expected: everyone(200) },
  'GET /api/wumpus': { request: async () => ({ method: 'GET', path: `/api/wumpus?u_email=${USER}` }), expected: signedIn(200) },
  'GET /api/wumpus/:id': { request: async () => ({ method: 'GET', path: `/api/wumpus/${await usersWumpus()}` }), expected: everyone(200) },
  'GET /api/wumpus/:id/stickers': {
    request: async () => ({ method: 'GET', path: `/api/wumpus/${await usersWumpus()}/stickers` }),
    expected: everyone(200),
  },
  'GET /api/files/:id': { request: async () => ({ method: 'GET', path: `/api/files/${await adminUpload('gif', buildGif())}` }), expected: everyone(200) },
  'GET /api/files/:id/:name': { request: async () => ({ method: 'GET', path: `/api/files/${await adminUpload('gif', buildGif())}/f.gif` }), expected: everyone(200) },
  'GET /api/profile/:email': { request: async () => ({ method: 'GET', path: `/api/profile/${USER}` }), expected: signedIn(200) },
  // With our session token it is a profile update: one's own only (the unverified persona is the user, unverified).
  'PUT /api/user/:email': {
    request: async () => ({ method: 'PUT', path: `/api/user/${USER}`, body: { job: 'Animator' } }),
    expected: { anonymous: 401, unverified: 200, user: 200, otherUser: 403, admin: 403 },
  },
  'GET /api/admin/:email': { request: async () => ({ method: 'GET', path: `/api/admin/${ADMIN}` }), expected: adminOnly(200) },
  'POST /api/uploads/image': { request: async () => ({ method: 'POST', path: '/api/uploads/image', body: form('file', stillPng(), 'me.png') }), expected: signedIn(201) },
  'POST /api/uploads/animation': {
    request: async () => ({ method: 'POST', path: '/api/uploads/animation?format=gif', body: form('file', buildGif(), 'a.gif') }),
    expected: adminOnly(201),
  },
  'POST /api/uploads/lottie-link': {
    request: async () => ({ method: 'POST', path: '/api/uploads/lottie-link', body: { url: `/api/files/${await adminUpload('lottie', lottieBytes())}/f.json` } }),
    expected: adminOnly(201),
  },
  'POST /api/renders': { request: async () => ({ method: 'POST', path: '/api/renders', body: { lottie: await adminUpload('lottie', lottieBytes()) } }), expected: adminOnly(201) },
  'POST /api/wumpuses': {
    request: async () => ({
      method: 'POST',
      path: '/api/wumpuses',
      body: { name: 'Matrix Wumpus', description: 'Published by the matrix', files: { gif: await adminUpload('gif', buildGif()), apng: await adminUpload('apng', buildApng()), lottie: await adminUpload('lottie', lottieBytes()) } },
    }),
    expected: adminOnly(201),
  },
  'PUT /api/wumpuses/:id': {
    request: async () => ({ method: 'PUT', path: `/api/wumpuses/${await usersWumpus()}`, body: { name: 'Edited Wumpus' } }),
    expected: { anonymous: 401, unverified: 403, user: 200, otherUser: 403, admin: 200 },
  },
  'DELETE /api/wumpus/:id': { request: async () => ({ method: 'DELETE', path: `/api/wumpus/${await usersWumpus()}` }), expected: adminOnly(200) },
  'GET /api/users': { request: async () => ({ method: 'GET', path: '/api/users' }), expected: adminOnly(200) },
  'PUT /api/user/admin/:email': {
    request: async () => {
      const email = `promote-${Math.random().toString(36).slice(2)}@example.com`
      await server.store.upsertUser(email, { user_name: 'Promotable' })
      return { method: 'PUT', path: `/api/user/admin/${email}` }
    },
    expected: adminOnly(200),
  },
}

function send(request: Request, persona: Persona): Promise<Response> {
  const token = tokens[persona]
  const json = request.body !== undefined && !(request.body instanceof FormData)
  return fetch(server.url + request.path, {
    method: request.method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(json ? { 'content-type': 'application/json' } : {}) },
    body: request.body === undefined ? undefined : json ? JSON.stringify(request.body) : (request.body as FormData),
  })
}

beforeAll(async () => {
  server = await startTestServer()
  await server.store.upsertUser(USER, { user_name: 'Owner' })
  await server.store.upsertUser(OTHER, { user_name: 'Other' })
  await server.store.upsertUser(ADMIN, { user_name: 'Admin', role: 'admin' })
  tokens.unverified = server.sessionToken(USER, { emailVerified: false })
  tokens.user = server.sessionToken(USER)
  tokens.otherUser = server.sessionToken(OTHER)
  tokens.admin = server.sessionToken(ADMIN)
})
afterAll(() => server.close())

describe('authorization matrix', () => {
  it('has a row for every endpoint of the app', () => {
    const unused = async () => {
      throw new Error('unused')
    }
    const routes = appRouters({ config: server.config, store: server.store, verifyIdToken: unused, derivedMedia: server.derivedMedia })
      .flatMap((router) => router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${String(layer.path)}`)))
    expect(routes.sort()).toEqual(Object.keys(MATRIX).sort())
  })

  for (const [endpoint, { request, expected }] of Object.entries(MATRIX)) {
    it(`${endpoint}: ${PERSONAS.map((p) => `${p} ${expected[p]}`).join(', ')}`, async () => {
      const actual: Partial<Record<Persona, number>> = {}
      for (const persona of PERSONAS) actual[persona] = (await send(await request(), persona)).status
      expect(actual).toEqual(expected)
    })
  }
})
