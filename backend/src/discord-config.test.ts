import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config'

const APP = {
  DISCORD_CLIENT_ID: '1234567890123',
  DISCORD_CLIENT_SECRET: 'client-secret-xyz',
  DISCORD_BOT_TOKEN: 'MTIz.bot-token_abcdefghij',
}
const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'wumpus-discord-config-')), ...env })

function problemsOf(env: Record<string, string>): string[] {
  try {
    load(env)
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
  return []
}

describe('Discord settings', () => {
  it('are off without any of them', () => {
    expect(load({}).discord).toBeUndefined()
  })

  it('take all three secrets, with Discord’s URLs by default', () => {
    expect(load(APP).discord).toEqual({
      clientId: APP.DISCORD_CLIENT_ID,
      clientSecret: APP.DISCORD_CLIENT_SECRET,
      botToken: APP.DISCORD_BOT_TOKEN,
      authorizeUrl: 'https://discord.com/oauth2/authorize',
      apiUrl: 'https://discord.com/api/v10',
    })
    const local = load({ ...APP, DISCORD_API_URL: 'http://127.0.0.1:9/api/', DISCORD_AUTHORIZE_URL: 'http://127.0.0.1:9/oauth2/authorize' })
    expect(local.discord).toMatchObject({ apiUrl: 'http://127.0.0.1:9/api', authorizeUrl: 'http://127.0.0.1:9/oauth2/authorize' })
  })

  it('refuse one or two of the three, naming what is missing', () => {
    expect(problemsOf({ DISCORD_CLIENT_ID: APP.DISCORD_CLIENT_ID })).toEqual([
      expect.stringMatching(/^DISCORD_CLIENT_SECRET: required with DISCORD_CLIENT_ID/),
      expect.stringMatching(/^DISCORD_BOT_TOKEN: required with DISCORD_CLIENT_ID/),
    ])
    expect(problemsOf({ DISCORD_CLIENT_ID: APP.DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET: APP.DISCORD_CLIENT_SECRET })).toEqual([
      expect.stringMatching(/^DISCORD_BOT_TOKEN: required/),
    ])
  })

  it('refuse a malformed id or URL without echoing a secret', () => {
    const problems = problemsOf({ ...APP, DISCORD_CLIENT_ID: 'my-app', DISCORD_API_URL: 'ftp://x' })
    expect(problems).toEqual([expect.stringMatching(/^DISCORD_CLIENT_ID: /), expect.stringMatching(/^DISCORD_API_URL: /)])
    const bad = problemsOf({ ...APP, DISCORD_BOT_TOKEN: 'has spaces in it, which no token has' })
    expect(bad).toEqual([expect.stringMatching(/^DISCORD_BOT_TOKEN: /)])
    expect(bad.join()).not.toContain('has spaces')
  })
})
