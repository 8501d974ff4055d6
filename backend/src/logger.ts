import type { Config } from './config'

type Level = 'error' | 'info' | 'debug'
const rank: Record<Config['logLevel'], number> = { silent: 0, error: 1, info: 2, debug: 3 }

export interface Logger {
  error(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  debug(message: string, fields?: Record<string, unknown>): void
}

/** One JSON object per line on stdout/stderr, so logs are easy to grep and ship. */
export function createLogger(level: Config['logLevel']): Logger {
  const write = (at: Level, message: string, fields?: Record<string, unknown>) => {
    if (rank[at] > rank[level]) return
    const line = JSON.stringify({ time: new Date().toISOString(), level: at, message, ...fields })
    if (at === 'error') process.stderr.write(line + '\n')
    else process.stdout.write(line + '\n')
  }
  return {
    error: (m, f) => write('error', m, f),
    info: (m, f) => write('info', m, f),
    debug: (m, f) => write('debug', m, f),
  }
}
