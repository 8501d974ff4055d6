import type { ChildProcess } from 'node:child_process'

export interface AuthEmulator {
  host: string
  process: ChildProcess
  logFile: string
}

export function startAuthEmulator(options: {
  dataDir: string
  projectId?: string
  port?: number
  env?: NodeJS.ProcessEnv
}): Promise<AuthEmulator>
export function stopAuthEmulator(emulator: AuthEmulator): Promise<void>
