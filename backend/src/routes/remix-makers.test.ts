import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { favouritePath } from '../../../contract/api-paths'
import { favouriteListSchema } from '../../../contract/favourites'
import { packDetailSchema } from '../../../contract/pack'
import { wumpusSchema } from '../../../contract/wumpus'
import { addRemix, addWumpus, startTestServer, type TestServer } from '../../test/support/test-server'

// A remix shown to others names its maker by display name only, unless they are a contributor (someone
// with a published animation, whose profile is public): its owner and admins see the email.
let server: TestServer
const ADMIN = 'admin@example.com'
let admin: string

beforeAll(async () => {
  server = await startTestServer()
  await server.store.users.upsert(ADMIN, { user_name: 'Admin Person', role: 'admin' })
  admin = await server.sessionToken(ADMIN)
})
afterAll(() => server.close())

let people = 0
async function someone(): Promise<{ email: string; token: string }> {
  const email = `maker-${++people}@example.com`
  await server.store.users.upsert(email, { user_name: `Maker ${people}` })
  return { email, token: await server.sessionToken(email) }
}

const call = (method: string, path: string, token?: string, body?: unknown) => server.call(method, path, token, body)

async function detail(id: string, token?: string) {
  const res = await call('GET', `/api/wumpus/${id}`, token)
  expect(res.status).toBe(200)
  return res.text()
}

describe('the maker of a remix', () => {
  it('is named by display name only to others in its detail, stickers, favourites and a pack shared by link', async () => {
    const [maker, other] = [await someone(), await someone()]
    const remix = await addRemix(server.store, maker.email, 'link', { u_name: 'Remix Maker' })
    const notNamed = (text: string) => {
      expect(text).not.toContain(maker.email)
      expect(text).toContain('Remix Maker')
    }

    for (const token of [undefined, other.token]) {
      const shown = await detail(remix._id, token)
      notNamed(shown)
      expect(wumpusSchema.parse(JSON.parse(shown)).u_email).toBeUndefined()
      expect(await (await call('GET', `/api/wumpus/${remix._id}/stickers`, token)).text()).not.toContain(maker.email)
    }
    for (const token of [maker.token, admin])
      expect(wumpusSchema.parse(JSON.parse(await detail(remix._id, token))).u_email).toBe(maker.email)

    expect((await call('PUT', favouritePath(remix._id), other.token)).status).toBe(204)
    const favourites = await call('GET', '/api/me/favourites', other.token)
    const favouritesText = await favourites.text()
    notNamed(favouritesText)
    expect(favouriteListSchema.parse(JSON.parse(favouritesText))[0]!.u_email).toBeUndefined()

    const made = await call('POST', '/api/me/packs', maker.token, { name: 'Mine', wumpusIds: [remix._id], visibility: 'link' })
    expect(made.status, await made.clone().text()).toBe(201)
    const packId = ((await made.json()) as { id: string }).id
    for (const token of [undefined, other.token]) {
      const opened = await call('GET', `/api/packs/${packId}`, token)
      expect(opened.status).toBe(200)
      const text = await opened.text()
      notNamed(text)
      const pack = packDetailSchema.parse(JSON.parse(text))
      expect(pack.items[0]!.u_email).toBeUndefined()
      expect(pack.cover?.u_email).toBeUndefined()
    }
    const own = packDetailSchema.parse(await (await call('GET', `/api/packs/${packId}`, maker.token)).json())
    expect(own.items[0]!.u_email).toBe(maker.email)
  })

  it('is named by email (a profile link) when they are a contributor', async () => {
    const maker = await someone()
    await addWumpus(server.store, { u_email: maker.email })
    const remix = await addRemix(server.store, maker.email, 'link')
    expect(wumpusSchema.parse(JSON.parse(await detail(remix._id))).u_email).toBe(maker.email)
  })
})
