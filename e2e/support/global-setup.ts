import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string
    dataDir: string
  }
}

/** Starts the product exactly as `npm start` does, on a fresh data folder, once for all browser tests. */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wumpus-e2e-'))
  const port = await freePort()
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'error' },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: false,
  })
  const baseURL = `http://127.0.0.1:${port}`
  await waitForReady(baseURL, child)
  project.provide('baseURL', baseURL)
  project.provide('dataDir', dataDir)

  return async () => {
    if (child.exitCode === null) {
      child.kill('SIGINT')
      await new Promise((resolve) => child.once('exit', resolve))
    }
    rmSync(dataDir, { recursive: true, force: true })
  }
}

async function waitForReady(baseURL: string, child: ChildProcess) {
  const deadline = Date.now() + 170_000
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}
