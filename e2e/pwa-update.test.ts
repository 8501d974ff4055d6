import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, renameSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { freePortRun } from '../backend/test/support/ports'
import { launchBrowser, newContext } from './support/browser'

/**
 * A deploy while a tab is open: a second server (sharing the tests' Auth emulator) serves a build
 * that is then replaced by a new one, switched in at once as a deploy does (a symlink renamed over
 * the served one). Rebuilding in place would let the browser's own update check, which follows
 * every navigation, read a half-written build.
 */
const root = path.resolve(import.meta.dirname, '..')
const work = mkdtempSync(path.join(tmpdir(), 'wumpus-deploy-'))
const staticDir = path.join(work, 'current')
let server: ChildProcess
let baseURL: string
let browser: Browser

function deploy(buildId: string) {
  const outDir = path.join(work, `build-${buildId}`)
  const result = spawnSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'error', '--outDir', outDir, '--emptyOutDir'],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production', VITE_BUILD_ID: buildId },
    },
  )
  if (result.status !== 0) throw new Error(`the build of ${buildId} failed`)
  const next = path.join(work, 'next')
  symlinkSync(outDir, next)
  renameSync(next, staticDir)
}

beforeAll(async () => {
  deploy('first')
  const port = await freePortRun(1)
  baseURL = `http://127.0.0.1:${port}`
  server = spawn(process.execPath, ['--import', 'tsx', 'backend/src/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: path.join(work, 'data'),
      STATIC_DIR: staticDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'error',
      FIREBASE_AUTH_EMULATOR_HOST: new URL(inject('authEmulatorURL')).host,
    },
  })
  await vi.waitFor(async () => expect((await fetch(`${baseURL}/ready`)).status).toBe(200), { timeout: 60_000, interval: 200 })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  if (server && server.exitCode === null) {
    server.kill('SIGINT')
    await new Promise((resolve) => server.once('exit', resolve))
  }
  rmSync(work, { recursive: true, force: true })
})

const buildIdOf = (page: Page) => page.evaluate(() => document.querySelector('meta[name="build-id"]')?.getAttribute('content'))

describe('a new version with a tab open', () => {
  it('offers Reload, keeps the old page until then, and never serves stale HTML after', async () => {
    const context = await newContext(browser, baseURL)
    const page = await context.newPage()
    await page.goto('/about')
    await page.evaluate(() => navigator.serviceWorker.ready)
    await page.reload()
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
    expect(await buildIdOf(page)).toBe('first')

    deploy('second')
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update())
    await page.getByText('Update available').waitFor({ timeout: 30_000 })
    // Until the user chooses, the open tab keeps its own version, navigations included.
    await page.goto('/about')
    expect(await buildIdOf(page)).toBe('first')

    await page.getByRole('button', { name: 'Reload' }).click()
    await expect.poll(() => buildIdOf(page), { timeout: 30_000 }).toBe('second')
    await page.goto('/')
    expect(await buildIdOf(page)).toBe('second')
    await context.close()
  })
})
