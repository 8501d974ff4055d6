import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { freePortRun } from '../../backend/test/support/ports'
import { startBotApiStandIn } from '../../backend/test/support/telegram-bot-api'
import { startDiscordStandIn } from '../../backend/test/support/discord-api'

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string
    dataDir: string
    authEmulatorURL: string
    /** The Bot API stand-in the server makes Telegram sets on, and its token (for tests to read the sets back). */
    botApiURL: string
    botToken: string
    /** The Discord stand-in's REST base, its bot token and the tier-0 server its authorize page picks. */
    discordApiURL: string
    discordBotToken: string
    discordGuild: string
  }
}

/** The Telegram user the stand-in lets own the gallery's sets (TELEGRAM_SET_OWNER_ID). */
const SET_OWNER_ID = 4242

/** Starts the product exactly as `npm start` does, on a fresh data folder, once for all browser tests. */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wumpus-e2e-'))
  const port = await freePortRun(1)
  const authEmulatorPort = await freePortRun(3)
  // Telegram sets are on, against the Bot API stand-in: no network here (README: what is checked only that way).
  const bot = await startBotApiStandIn({ owners: [SET_OWNER_ID] })
  // Discord too, against its stand-in: a free (tier 0) server, 429 to every tenth call.
  const discord = await startDiscordStandIn({
    guilds: [{ id: '1096000000000000001', premium_tier: 0 }],
    rateLimit: { every: 10, retryAfter: 1 },
  })
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    // The browser tests sign in from one address far more often than people do: lift the rate limits.
    env: {
      ...process.env,
      PORT: String(port),
      AUTH_EMULATOR_PORT: String(authEmulatorPort),
      DATA_DIR: dataDir,
      // Backups on request only (the admin page's "Back up now"), kept with the data.
      BACKUP_DIR: path.join(dataDir, 'backups'),
      BACKUP_INTERVAL_HOURS: '0',
      LOG_LEVEL: 'error',
      RATE_LIMIT_FACTOR: '20',
      TELEGRAM_BOT_TOKEN: bot.token,
      TELEGRAM_SET_OWNER_ID: String(SET_OWNER_ID),
      TELEGRAM_API_URL: bot.url,
      DISCORD_CLIENT_ID: discord.clientId,
      DISCORD_CLIENT_SECRET: discord.clientSecret,
      DISCORD_BOT_TOKEN: discord.botToken,
      DISCORD_API_URL: discord.apiUrl,
      DISCORD_AUTHORIZE_URL: discord.authorizeUrl,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: false,
  })
  const baseURL = `http://127.0.0.1:${port}`
  await waitForReady(baseURL, child)
  project.provide('baseURL', baseURL)
  project.provide('dataDir', dataDir)
  project.provide('authEmulatorURL', `http://127.0.0.1:${authEmulatorPort}`)
  project.provide('botApiURL', bot.url)
  project.provide('botToken', bot.token)
  project.provide('discordApiURL', discord.apiUrl)
  project.provide('discordBotToken', discord.botToken)
  project.provide('discordGuild', discord.pick)

  return async () => {
    if (child.exitCode === null) {
      child.kill('SIGINT')
      await new Promise((resolve) => child.once('exit', resolve))
    }
    await bot.close()
    await discord.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

async function waitForReady(baseURL: string, child: ChildProcess) {
  const deadline = Date.now() + 300_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`)
    try {
      const res = await fetch(`${baseURL}/ready`)
      if (res.ok) return
    } catch {}
    await new Promise((r) => setTimeout(r, 250))
  }
  child.kill('SIGINT')
  throw new Error('the server did not become ready')
}
