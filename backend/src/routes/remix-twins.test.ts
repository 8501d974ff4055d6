// An identical recipe on the same original reuses the files made before (services/twin-files.ts): no render,
// none of the day's budget, copies of one's own; never someone else's private remix.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { remixPath, remixSharingPath } from '../../../contract/remix/remix-paths'
import { remixCreatedSchema } from '../../../contract/remix/remix-api'
import { wumpusSchema } from '../../../contract/wumpus'
import { lottieBytes } from '../../test/fixtures/lottie'
import { expectError } from '../../test/support/error-body'
import { startTestServer, type TestServer } from '../../test/support/test-server'

let server: TestServer
const ADMIN = 'admin@example.com'

// One render a day per account: a second remix that is made at all was not rendered.
beforeAll(async () => {
  server = await startTestServer({ REMIX_RENDERS_PER_DAY: '1', RATE_LIMIT_FACTOR: '1' })
  await server.store.users.upsert(ADMIN, { user_name: 'Admin Person', role: 'admin' })
})
afterAll(() => server.close())

async function account(email: string): Promise<string> {
  await server.store.users.upsert(email, { user_name: email.split('@')[0]! })
  return server.sessionToken(email)
}

async function remixed(originalId: string, token: string, recipe: object): Promise<string> {
  const res = await server.call('POST', remixPath(originalId), token, recipe)
  expect(res.status, await res.clone().text()).toBe(201)
  return remixCreatedSchema.parse(await res.json()).id
}

async function bytesOf(id: string, format: 'gif' | 'apng'): Promise<Uint8Array> {
  const record = (await server.store.wumpuses.get(id))!
  return (await server.store.files.read(record.files[format].id))!.bytes
}

it('makes a remix with the recipe of one made before from copies of its files, without rendering, never from another person’s private one', async () => {
  const data = new FormData()
  data.append('name', 'Twin Ball')
  data.append('description', 'A ball to remix twice')
  data.append('lottie', new Blob([new Uint8Array(lottieBytes({ nm: 'twin-ball' }))]), 'ball.json')
  const published = await server.call('POST', '/api/wumpuses', await server.sessionToken(ADMIN), data)
  expect(published.status, await published.clone().text()).toBe(201)
  const original = wumpusSchema.parse(await published.json())

  const maker = await account('maker@example.com')
  const first = await remixed(original._id, maker, { speed: 2 })
  const again = await remixed(original._id, maker, { speed: 2 })
  const [a, b] = [(await server.store.wumpuses.get(first))!, (await server.store.wumpuses.get(again))!]
  for (const format of ['gif', 'apng'] as const) {
    expect(b.files[format].id).not.toBe(a.files[format].id)
    expect(await bytesOf(again, format)).toEqual(await bytesOf(first, format))
  }
  // The day's one render was the first remix's.
  await expectError(await server.call('POST', remixPath(original._id), maker, { speed: 0.5 }), 429, 'RATE_LIMITED')

  // Another account spends its render, then asks for the maker's private recipe: it would have to render.
  const other = await account('other@example.com')
  await remixed(original._id, other, { mirror: true })
  await expectError(await server.call('POST', remixPath(original._id), other, { speed: 2 }), 429, 'RATE_LIMITED')
  // Shared by link, the maker's remix is for anyone to reuse; its copies outlive it.
  for (const id of [first, again]) expect((await server.call('PUT', remixSharingPath(id), maker, { visibility: 'link' })).status).toBe(200)
  const theirs = await remixed(original._id, other, { speed: 2 })
  expect(await bytesOf(theirs, 'gif')).toEqual(await bytesOf(first, 'gif'))
  for (const id of [first, again]) expect((await server.call('DELETE', `/api/wumpus/${id}`, maker)).status).toBe(200)
  expect((await bytesOf(theirs, 'apng')).length).toBeGreaterThan(0)
})
