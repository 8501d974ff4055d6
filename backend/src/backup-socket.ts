/**
 * `npm run backup` while the server runs: the server holds the database's exclusive lock, so the copy is
 * made by the server itself, asked through a Unix socket in the data folder (only the folder's owner can
 * reach it: the folder is 0700). One request per connection, one JSON line each way.
 */
import { rm } from 'node:fs/promises'
import net from 'node:net'
import path from 'node:path'
import type { Logger } from './logger'
import type { BackupReport, Store } from './store/port'

export const BACKUP_SOCKET = 'backup.sock'

export interface BackupRequest {
  /** An absolute path of a new (or empty) folder. */
  into: string
}
export type BackupAnswer = { ok: true; report: BackupReport } | { ok: false; error: string }

/** Listens for backup requests; answers the socket's stop. Without a store that backs up, does nothing. */
export async function listenForBackups(store: Store, dataDir: string, logger: Logger): Promise<() => Promise<void>> {
  if (!store.backup) return async () => undefined
  const file = path.join(dataDir, BACKUP_SOCKET)
  // Left by a server that crashed: this process holds the folder now, so no other server listens there.
  await rm(file, { force: true })
  const server = net.createServer((socket) => {
    let line = ''
    socket.setEncoding('utf8')
    socket.on('error', () => undefined)
    socket.on('data', (chunk: string) => {
      line += chunk
      if (!line.includes('\n')) {
        if (line.length > 10_000) socket.destroy()
        return
      }
      socket.pause()
      void answer(line.slice(0, line.indexOf('\n'))).then((reply) => socket.end(`${JSON.stringify(reply)}\n`))
    })
  })
  const answer = async (text: string): Promise<BackupAnswer> => {
    try {
      const request = JSON.parse(text) as Partial<BackupRequest>
      if (typeof request.into !== 'string' || !path.isAbsolute(request.into))
        return { ok: false, error: 'into: an absolute folder path is required' }
      const report = await store.backup!(request.into)
      logger.info('backup made', { by: 'npm run backup', into: request.into, files: report.files })
      return { ok: true, report }
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) }
    }
  }
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(file, () => resolve())
    })
  } catch (error) {
    // A data folder whose path is too long for a socket's name, say: backups then need the server stopped.
    logger.error('npm run backup cannot reach this server', { socket: file, error: String(error) })
    return async () => undefined
  }
  return () => new Promise<void>((resolve) => server.close(() => resolve()))
}
