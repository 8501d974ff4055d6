import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config'

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'wumpus-config-'))

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ DATA_DIR: tempDir(), ...env })
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
  return []
}

describe('loadConfig', () => {
  it('takes TELEGRAM_WEBHOOK_SECRET with the bot only, as Telegram’s secret_token allows (issue 36)', () => {
    const bot = { TELEGRAM_BOT_TOKEN: '123456:abcdefghijklmnopqrstuvwxyz', TELEGRAM_SET_OWNER_ID: '7' }
    const secret = 'a-webhook_secret-0123456789'
    expect(loadConfig({ DATA_DIR: tempDir(), ...bot, TELEGRAM_WEBHOOK_SECRET: secret }).telegram?.webhookSecret).toBe(secret)
    expect(loadConfig({ DATA_DIR: tempDir(), ...bot }).telegram).not.toHaveProperty('webhookSecret')
    expect(problemsOf({ ...bot, TELEGRAM_WEBHOOK_SECRET: 'short' })).toEqual([
      expect.stringMatching(/^TELEGRAM_WEBHOOK_SECRET: must be 16-256/),
    ])
    expect(problemsOf({ ...bot, TELEGRAM_WEBHOOK_SECRET: 'has spaces in it, not allowed' })).toHaveLength(1)
    expect(problemsOf({ TELEGRAM_WEBHOOK_SECRET: secret })).toEqual([
      expect.stringMatching(/^TELEGRAM_BOT_TOKEN: required with TELEGRAM_WEBHOOK_SECRET/),
    ])
  })

  it('runs with zero configuration on the embedded store and the Auth emulator', () => {
    const dataDir = tempDir()
    const config = loadConfig({ DATA_DIR: dataDir })
    expect(config.port).toBe(3000)
    expect(config.mongodbUri).toBeUndefined()
    expect(config.firebase).toMatchObject({ projectId: 'demo-wumpus', authEmulatorHost: '127.0.0.1:9099' })
    expect(config.seedDemo).toBe(true)
    expect(config.sessionIdleSeconds).toBe(3 * 24 * 3600)
    // The local signing secret is kept so sessions survive a restart.
    expect(config.jwtSecret).toBe(readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8'))
    expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(config.jwtSecret)
  })

  it('replaces a kept signing secret that is empty or too short', () => {
    for (const weak of ['', '   \n', 'short']) {
      const dataDir = tempDir()
      writeFileSync(path.join(dataDir, 'jwt-secret'), weak)
      const { jwtSecret } = loadConfig({ DATA_DIR: dataDir })
      expect(jwtSecret.length).toBeGreaterThanOrEqual(32)
      expect(readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8')).toBe(jwtSecret)
    }
  })

  it('reads every setting', () => {
    const config = loadConfig({
      PORT: '8080',
      DATA_DIR: tempDir(),
      MONGODB_URI: 'mongodb://db.internal:27017/wumpus',
      JWT_SECRET: 'x'.repeat(40),
      ADMIN_EMAILS: ' Ana@Example.com , bo@example.com',
      FIREBASE_PROJECT_ID: 'wumpus-prod',
      FIREBASE_API_KEY: 'key',
      MAX_GIF_BYTES: '1000',
      SEED_DEMO: 'false',
      PUBLIC_URL: 'https://Stickers.Example.com/',
    })
    expect(config).toMatchObject({
      port: 8080,
      mongodbUri: 'mongodb://db.internal:27017/wumpus',
      adminEmails: ['ana@example.com', 'bo@example.com'],
      seedDemo: false,
      publicUrl: 'https://stickers.example.com',
      limits: { gif: 1000 },
      firebase: { projectId: 'wumpus-prod', apiKey: 'key', authEmulatorHost: undefined },
    })
  })

  it.each([
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['MONGODB_URI', { MONGODB_URI: 'postgres://x' }],
    ['JWT_SECRET', { JWT_SECRET: 'short' }],
    ['ADMIN_EMAILS', { ADMIN_EMAILS: 'ana@example.com,not-an-email' }],
    ['MAX_GIF_BYTES', { MAX_GIF_BYTES: '-1' }],
    ['SEED_DEMO', { SEED_DEMO: 'maybe' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['JWT_SECRET', { NODE_ENV: 'production' }],
    ['FIREBASE_API_KEY', { FIREBASE_PROJECT_ID: 'wumpus-prod' }],
    ['SESSION_MAX_AGE_SECONDS', { SESSION_MAX_AGE_SECONDS: '10' }],
    ['SESSION_IDLE_SECONDS', { SESSION_IDLE_SECONDS: '10' }],
    ['SESSION_IDLE_SECONDS', { SESSION_IDLE_SECONDS: 'a day' }],
    ['RATE_LIMIT_FACTOR', { RATE_LIMIT_FACTOR: '0' }],
    ['RENDER_POLL_SECONDS', { RENDER_POLL_SECONDS: '-1' }],
    ['RENDER_POLL_SECONDS', { RENDER_POLL_SECONDS: 'often' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'stickers.example.com' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'ftp://stickers.example.com' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'https://example.com/gallery' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'https://example.com/?a=1' }],
    ['TRUST_PROXY_HOPS', { TRUST_PROXY_HOPS: '-1' }],
    ['TRUST_PROXY_HOPS', { TRUST_PROXY_HOPS: 'one' }],
    ['TRUST_PROXY_HOPS', { TRUST_PROXY_HOPS: '1.5' }],
    ['TRUST_PROXY_HOPS', { TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '0' }],
    ['TRUST_PROXY_HOPS', { TRUST_PROXY: 'false', TRUST_PROXY_HOPS: '2' }],
  ])('stops with a message naming %s', (variable, env) => {
    const problems = problemsOf(env)
    expect(problems.some((p) => p.startsWith(`${variable}:`))).toBe(true)
  })

  it('trusts no proxy by default, one balancer with TRUST_PROXY=true, and as many as TRUST_PROXY_HOPS says', () => {
    const proxy = (env: Record<string, string>) => {
      const { trustProxy, trustProxyHops } = loadConfig({ DATA_DIR: tempDir(), ...env })
      return { trustProxy, trustProxyHops }
    }
    expect(proxy({})).toEqual({ trustProxy: false, trustProxyHops: 0 })
    expect(proxy({ TRUST_PROXY: 'false' })).toEqual({ trustProxy: false, trustProxyHops: 0 })
    expect(proxy({ TRUST_PROXY: 'false', TRUST_PROXY_HOPS: '0' })).toEqual({ trustProxy: false, trustProxyHops: 0 })
    expect(proxy({ TRUST_PROXY: 'true' })).toEqual({ trustProxy: true, trustProxyHops: 1 })
    expect(proxy({ TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '2' })).toEqual({ trustProxy: true, trustProxyHops: 2 })
    expect(proxy({ TRUST_PROXY_HOPS: '2' })).toEqual({ trustProxy: true, trustProxyHops: 2 })
    expect(proxy({ TRUST_PROXY_HOPS: '0' })).toEqual({ trustProxy: false, trustProxyHops: 0 })
    expect(proxy({ TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '' })).toEqual({ trustProxy: true, trustProxyHops: 1 })
  })

  describe('production refuses to run on emulator trust', () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) }

    it('refuses a demo-* project, the default included, and says which variable to set', () => {
      for (const env of [
        production,
        { ...production, FIREBASE_PROJECT_ID: 'demo-wumpus' },
        { ...production, FIREBASE_PROJECT_ID: 'demo-other' },
      ]) {
        const problems = problemsOf(env)
        expect(problems).toEqual([expect.stringMatching(/^FIREBASE_PROJECT_ID: set your Firebase project id/)])
      }
    })

    it('refuses an emulator host, with a real project too', () => {
      const problems = problemsOf({
        ...production,
        FIREBASE_PROJECT_ID: 'wumpus-prod',
        FIREBASE_API_KEY: 'key',
        FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
      })
      expect(problems).toEqual([expect.stringMatching(/^FIREBASE_AUTH_EMULATOR_HOST: must not be set when NODE_ENV=production/)])
    })

    it('starts with a real project, its key and a secret', () => {
      const config = loadConfig({ DATA_DIR: tempDir(), ...production, FIREBASE_PROJECT_ID: 'wumpus-prod', FIREBASE_API_KEY: 'key' })
      expect(config).toMatchObject({ production: true, firebase: { projectId: 'wumpus-prod', authEmulatorHost: undefined } })
    })

    it('still lets development and tests use the emulator', () => {
      expect(problemsOf({ NODE_ENV: 'development' })).toEqual([])
      expect(problemsOf({ NODE_ENV: 'test', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' })).toEqual([])
    })
  })
})
