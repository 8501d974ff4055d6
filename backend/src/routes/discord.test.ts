import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientConfigSchema } from '../../../contract/client-config'
import { discordTicketSchema, discordUploadSchema } from '../../../contract/discord'
import { expectError } from '../../test/support/error-body'
import { startDiscordStandIn, type DiscordStandIn } from '../../test/support/discord-api'
import { addDiscordStickers, addPack } from '../../test/support/discord-stickers'
import { startTestServer, type TestServer } from '../../test/support/test-server'

const GUILD = '41771983423143937'
const ANN = 'discord-ann@example.com'
let discord: DiscordStandIn
let server: TestServer
let ann: string
let bob: string

beforeAll(async () => {
  discord = await startDiscordStandIn({ guilds: [{ id: GUILD, premium_tier: 0 }], rateLimit: { every: 10, retryAfter: 0.2 } })
  server = await startTestServer(
    {
      DISCORD_CLIENT_ID: discord.clientId,
      DISCORD_CLIENT_SECRET: discord.clientSecret,
      DISCORD_BOT_TOKEN: discord.botToken,
      DISCORD_API_URL: discord.apiUrl,
      DISCORD_AUTHORIZE_URL: discord.authorizeUrl,
    },
    { discordTimes: { pollMs: 100, retryMs: 100 } },
  )
  ann = await server.sessionToken(ANN)
  bob = await server.sessionToken('discord-bob@example.com')
})
afterAll(async () => {
  await server.close()
  await discord.close()
})

/** Where a redirect goes (the answer must be one). */
async function redirected(url: string): Promise<string> {
  const response = await fetch(url, { redirect: 'manual' })
  expect(response.status, await response.clone().text()).toBe(302)
  return response.headers.get('location')!
}

describe('Add to my Discord server through the API', () => {
  it('goes from the button to Discord and back, and shows the starter what was uploaded and what did not fit', async () => {
    const records = await addDiscordStickers(server.store, 8, 'Route')
    const pack = await addPack(server.store, 'Route Pack', records)

    const config = await (await server.call('GET', '/api/config')).text()
    expect(clientConfigSchema.parse(JSON.parse(config)).discord).toBe(true)
    for (const secret of [discord.clientSecret, discord.botToken]) expect(config).not.toContain(secret)

    await expectError(await server.call('POST', `/api/packs/${pack.id}/discord`), 401, 'UNAUTHENTICATED')
    const asked = await server.call('POST', `/api/packs/${pack.id}/discord`, ann)
    expect(asked.status).toBe(200)
    const { url } = discordTicketSchema.parse(await asked.json())
    expect(url).toMatch(new RegExp(`^/api/packs/${pack.id}/discord\\?ticket=`))

    const authorize = new URL(await redirected(server.url + url))
    expect(authorize.origin + authorize.pathname).toBe(discord.authorizeUrl)
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: discord.clientId,
      scope: 'bot',
      permissions: '8797166764032',
      response_type: 'code',
      redirect_uri: `${server.url}/api/discord/callback`,
    })
    const callback = await redirected(authorize.href)
    const page = await redirected(callback)
    const match = new RegExp(`^/packs/${pack.id}\\?discord=([0-9a-f]{24})$`).exec(page)
    expect(match, page).not.toBeNull()
    const job = match![1]!

    await expect
      .poll(async () => discordUploadSchema.parse(await (await server.call('GET', `/api/discord/uploads/${job}`, ann)).json()).state, {
        timeout: 30_000,
      })
      .toBe('done')
    const result = discordUploadSchema.parse(await (await server.call('GET', `/api/discord/uploads/${job}`, ann)).json())
    expect(result.uploaded.map((u) => u.name)).toEqual(['Route 1', 'Route 2', 'Route 3', 'Route 4', 'Route 5'])
    expect(result.notFitted.map((n) => [n.name, n.reason])).toEqual(
      ['Route 6', 'Route 7', 'Route 8'].map((name) => [name, 'No sticker slot left: the server holds 5 of 5 (boost level 0)']),
    )
    expect(discord.guilds.get(GUILD)!.stickers).toHaveLength(5)
    // Only the starter reads it.
    await expectError(await server.call('GET', `/api/discord/uploads/${job}`, bob), 404, 'NOT_FOUND')
    await expectError(await server.call('GET', `/api/discord/uploads/${job}`), 401, 'UNAUTHENTICATED')
    // The same way back again (a reload): that state made its job already.
    expect(await redirected(callback)).toBe(`/packs/${pack.id}?discord_error=used`)
  })

  it('answers bad tickets, refusals and nonsense with a page that says so, never a 500', async () => {
    const pack = await addPack(server.store, 'Bad Ways', await addDiscordStickers(server.store, 1, 'Bad'))
    expect(await redirected(`${server.url}/api/packs/${pack.id}/discord?ticket=forged.ticket`)).toBe(
      `/packs/${pack.id}?discord_error=unknown`,
    )
    expect(await redirected(`${server.url}/api/packs/${pack.id}/discord`)).toBe(`/packs/${pack.id}?discord_error=unknown`)
    expect(await redirected(`${server.url}/api/discord/callback`)).toBe('/?discord_error=unknown')
    expect(await redirected(`${server.url}/api/discord/callback?code=x&state=y.z&guild_id=1`)).toBe('/?discord_error=unknown')
    const { url } = discordTicketSchema.parse(await (await server.call('POST', `/api/packs/${pack.id}/discord`, ann)).json())
    const state = new URL(url, server.url).searchParams.get('ticket')!
    const denied = `${server.url}/api/discord/callback?error=access_denied&error_description=refused&state=${encodeURIComponent(state)}`
    expect(await redirected(denied)).toBe(`/packs/${pack.id}?discord_error=denied`)
    const badCode = `${server.url}/api/discord/callback?code=not-discords&state=${encodeURIComponent(state)}&guild_id=${GUILD}`
    expect(await redirected(badCode)).toBe(`/packs/${pack.id}?discord_error=refused`)
    await expectError(await server.call('POST', '/api/packs/not-an-id/discord', ann), 400, 'BAD_REQUEST')
    await expectError(await server.call('GET', '/api/discord/uploads/not-an-id', ann), 400, 'BAD_REQUEST')
  })

  it('offers nobody a personal pack they cannot open', async () => {
    const mine = await server.store.packs.insert({
      name: 'Private',
      description: '',
      wumpusIds: (await addDiscordStickers(server.store, 1, 'Private')).map((r) => r._id),
      createdBy: ANN,
      visibility: 'private',
    })
    await expectError(await server.call('POST', `/api/packs/${mine.id}/discord`, bob), 404, 'NOT_FOUND')
    expect((await server.call('POST', `/api/packs/${mine.id}/discord`, ann)).status).toBe(200)
  })
})

describe('Discord off', () => {
  it('has no Discord routes and says so in the client config', async () => {
    const off = await startTestServer()
    try {
      expect(clientConfigSchema.parse(await (await off.call('GET', '/api/config')).json()).discord).toBe(false)
      const token = await off.sessionToken(ANN)
      await expectError(await off.call('POST', `/api/packs/${'a'.repeat(24)}/discord`, token), 404, 'NOT_FOUND')
      await expectError(await off.call('GET', '/api/discord/callback?code=x'), 404, 'NOT_FOUND')
    } finally {
      await off.close()
    }
  })
})
