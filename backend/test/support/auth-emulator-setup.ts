import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { startAuthEmulator, stopAuthEmulator } from '../../../scripts/auth-emulator.mjs'
import { freePortRun } from './ports'

declare module 'vitest' {
  export interface ProvidedContext {
    authEmulatorHost: string
  }
}

/** One real Firebase Auth emulator for the backend tests, on ports nobody else uses. */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wumpus-auth-emulator-'))
  const emulator = await startAuthEmulator({ dataDir, port: await freePortRun(3) })
  project.provide('authEmulatorHost', emulator.host)
  return async () => {
    await stopAuthEmulator(emulator)
    rmSync(dataDir, { recursive: true, force: true })
  }
}
