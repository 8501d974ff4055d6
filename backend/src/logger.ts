import type { Config } from './config'

export type Level = 'error' | 'info' | 'debug'
const rank: Record<Config['logLevel'], number> = { silent: 0, error: 1, info: 2, debug: 3 }

export interface Logger {
  error(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  debug(message: string, fields?: Record<string, unknown>): void
}

/** Where log lines go: errors to stderr, the rest to stdout. */
const standardStreams = (line: string, at: Level) => (at === 'error' ? process.stderr : process.stdout).write(line + '\n')

/** One JSON object per line on stdout/stderr (or `sink`, for tests), so logs are easy to grep and ship. */
export function createLogger(level: Config['logLevel'], sink: (line: string, at: Level) => void = standardStreams): Logger {
  const write = (at: Level, message: string, fields?: Record<string, unknown>) => {
    if (rank[at] > rank[level]) return
    sink(JSON.stringify({ time: new Date().toISOString(), level: at, message, ...fields }), at)
  }
  return {
    error: (m, f) => write('error', m, f),
    info: (m, f) => write('info', m, f),
    debug: (m, f) => write('debug', m, f),
  }
}
