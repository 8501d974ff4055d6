import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { expect, inject, vi } from 'vitest'

const root = path.resolve(import.meta.dirname, '../../..')

/**
 * The real server process (backend/src/main.ts) on a data folder, without demo content; `env` adds to or
 * replaces its settings. Its stderr is this process's unless `stderr: 'pipe'` (to read what it says).
 */
export function spawnServer(options: {
  port: number
  dataDir: string
  env?: Record<string, string>
  stderr?: 'inherit' | 'pipe'
}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'backend/src/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', options.stderr ?? 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(options.port),
      DATA_DIR: options.dataDir,
      STATIC_DIR: options.dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'error',
      FIREBASE_AUTH_EMULATOR_HOST: inject('authEmulatorHost'),
      ...options.env,
    },
  })
}

/** Waits until the server answers /ready, failing at once if it exits. */
export async function waitUntilReady(base: string, child: ChildProcess): Promise<void> {
  await vi.waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`)
      expect((await fetch(`${base}/ready`)).ok).toBe(true)
    },
    { timeout: 30_000, interval: 100 },
  )
}
