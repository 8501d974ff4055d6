import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readinessSchema } from '../../../contract/health'
import { clientConfigSchema } from '../../../contract/client-config'
import { errorBody } from '../../test/support/error-body'
import { startMongoWireServer } from '../../test/support/mongo-wire-server'
import { startTestServer, type TestServer } from '../../test/support/test-server'
import { createApp } from '../app'
import { createRouteDeps } from '../composition'
import { createLogger } from '../logger'
import { openMongoStore } from '../store/mongo/open-mongo-store'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

describe('health and readiness', () => {
  it('answers liveness', async () => {
    const res = await fetch(`${server.url}/health`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 'ok' })
  })

  it('reports the store in readiness', async () => {
    const res = await fetch(`${server.url}/ready`)
    expect(res.status).toBe(200)
    expect(readinessSchema.parse(await res.json())).toEqual({ status: 'ready', store: { kind: 'sqlite', ok: true } })
  })
})

describe('GET /api/config', () => {
  it('tells the app which Firebase project and emulator to use', async () => {
    const body = clientConfigSchema.parse(await (await fetch(`${server.url}/api/config`)).json())
    expect(body.firebase.projectId).toBe('demo-wumpus')
    expect(body.firebase.authEmulatorUrl).toBe(`http://${server.config.firebase.authEmulatorHost}`)
  })
})

describe('readiness on MongoDB', () => {
  it('answers 503 in its own shape once the database goes away, and the API answers 503 in the error shape', async () => {
    const mongo = await startMongoWireServer()
    const store = await openMongoStore({ uri: mongo.uri, serverSelectionTimeoutMS: 300 })
    const app = createApp(createRouteDeps({ config: server.config, store, logger: createLogger('silent') }))
    const listener = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => listener.once('listening', resolve))
    const url = `http://127.0.0.1:${(listener.address() as { port: number }).port}`
    try {
      expect((await fetch(`${url}/ready`)).status).toBe(200)
      await mongo.close()
      const ready = await fetch(`${url}/ready`)
      expect(ready.status).toBe(503)
      expect(readinessSchema.parse(await ready.json())).toEqual({ status: 'unavailable', store: { kind: 'mongo', ok: false } })
      const list = await fetch(`${url}/api/wumpuses`)
      expect(list.status).toBe(503)
      expect(errorBody(await list.json()).error.code).toBe('STORE_UNAVAILABLE')
    } finally {
      listener.closeAllConnections()
      listener.close()
      await store.close()
    }
  })
})
