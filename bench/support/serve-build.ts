// Benchmarks' helper: build the app into a temp folder and run the product on it as `npm start` does.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freePortRun } from '../../backend/test/support/ports'
import { buildApp } from '../../scripts/build.mjs'

const root = path.resolve(import.meta.dirname, '../..')

export interface BuiltServer {
  baseURL: string
  staticDir: string
  /** From starting the product (emulator, seeding, server) to /ready answering, in ms. */
  readyMs: number
  stop(): Promise<void>
}

export async function buildAndServe(options: { sourcemap?: boolean } = {}): Promise<BuiltServer> {
  const work = mkdtempSync(path.join(tmpdir(), 'wumpus-bench-'))
  const staticDir = path.join(work, 'dist')
  const ssrDir = path.join(work, 'dist-ssr')
  if (!buildApp({ outDir: staticDir, ssrOutDir: ssrDir, logLevel: 'error', viteArgs: options.sourcemap ? ['--sourcemap'] : [] })) {
    throw new Error('the build failed')
  }

  const port = await freePortRun(1)
  const started = performance.now()
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      AUTH_EMULATOR_PORT: String(await freePortRun(3)),
      DATA_DIR: path.join(work, 'data'),
      STATIC_DIR: staticDir,
      SSR_DIR: ssrDir,
      LOG_LEVEL: 'error',
    },
  })
  const baseURL = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('the server did not start')
    try {
      if ((await fetch(`${baseURL}/ready`)).ok) break
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return {
    baseURL,
    staticDir,
    readyMs: performance.now() - started,
    async stop() {
      child.kill('SIGINT')
      await new Promise((resolve) => child.once('exit', resolve))
      rmSync(work, { recursive: true, force: true })
    },
  }
}

/**
 * Waits until the server has made every animation's card previews and platform exports (it makes
 * them in the background after start), so measurements see the steady state; answers how long it took.
 */
export async function waitForDerivedMedia(baseURL: string): Promise<number> {
  const started = performance.now()
  for (;;) {
    const list = (await (await fetch(`${baseURL}/api/wumpuses?limit=100`)).json()) as Array<{ _id: string; preview?: unknown }>
    const stickers = await Promise.all(
      list.map(async (w) => (await (await fetch(`${baseURL}/api/wumpus/${w._id}/stickers`)).json()) as Array<{ status: string }>),
    )
    if (list.length > 0 && list.every((w) => w.preview) && stickers.flat().every((s) => s.status !== 'pending')) {
      return performance.now() - started
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}
