// The remix render budget over HTTP: made renders count, deletes give none back, the refusal says when to try again.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { remixPath } from '../../../contract/remix/remix-paths'
import { remixCreatedSchema } from '../../../contract/remix/remix-api'
import { wumpusSchema } from '../../../contract/wumpus'
import { lottieBytes } from '../../test/fixtures/lottie'
import { expectError } from '../../test/support/error-body'
import { startTestServer, type TestServer } from '../../test/support/test-server'

let server: TestServer
const ADMIN = 'admin@example.com'

beforeAll(async () => {
  server = await startTestServer({ REMIX_RENDERS_PER_DAY: '2', RATE_LIMIT_FACTOR: '1' })
  await server.store.users.upsert(ADMIN, { user_name: 'Admin Person', role: 'admin' })
})
afterAll(() => server.close())

it('refuses a remix past the account’s renders of the day with 429 and Retry-After, though its remixes were deleted', async () => {
  const admin = await server.sessionToken(ADMIN)
  const data = new FormData()
  data.append('name', 'Bouncing Ball')
  data.append('description', 'A ball to make your own')
  data.append('lottie', new Blob([new Uint8Array(lottieBytes())]), 'ball.json')
  const published = await server.call('POST', '/api/wumpuses', admin, data)
  expect(published.status, await published.clone().text()).toBe(201)
  const original = wumpusSchema.parse(await published.json())
  await server.store.users.upsert('maker@example.com', { user_name: 'Maker' })
  const maker = await server.sessionToken('maker@example.com')
  for (let i = 0; i < 2; i++) {
    const res = await server.call('POST', remixPath(original._id), maker, { speed: 2 })
    expect(res.status, await res.clone().text()).toBe(201)
    const { id } = remixCreatedSchema.parse(await res.json())
    expect((await server.call('DELETE', `/api/wumpus/${id}`, maker)).status).toBe(200)
  }
  const refused = await server.call('POST', remixPath(original._id), maker, { speed: 2 })
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(23 * 3600)
  const error = await expectError(refused, 429, 'RATE_LIMITED')
  expect(error.message).toMatch(/2 remixes today/)
  expect(error.details).toMatchObject({ limit: 'remix-renders', max: 2 })
  // Another account's budget is its own.
  await server.store.users.upsert('other@example.com', { user_name: 'Other' })
  const other = await server.call('POST', remixPath(original._id), await server.sessionToken('other@example.com'), { speed: 2 })
  expect(other.status).toBe(201)
})
