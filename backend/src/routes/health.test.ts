import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readinessSchema } from '../../../contract/health'
import { clientConfigSchema } from '../../../contract/client-config'
import { startTestServer, type TestServer } from '../../test/support/test-server'

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
    expect(readinessSchema.parse(await res.json())).toEqual({ status: 'ready', store: { kind: 'embedded', ok: true } })
  })
})

describe('GET /api/config', () => {
  it('tells the app which Firebase project and emulator to use', async () => {
    const body = clientConfigSchema.parse(await (await fetch(`${server.url}/api/config`)).json())
    expect(body.firebase.projectId).toBe('demo-wumpus')
    expect(body.firebase.authEmulatorUrl).toBe('http://127.0.0.1:9099')
  })
})
