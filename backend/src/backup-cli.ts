/**
 * npm run backup -- <folder>    a consistent copy of the embedded store (database and files) into a new folder,
 *                               made by the running server (through its backup socket) or, with none, directly
 * npm run restore -- <folder>   puts a backup in place of DATA_DIR's database and files (the server stopped);
 *                               what was there is moved into DATA_DIR/before-restore-<time>/
 */
import net from 'node:net'
import path from 'node:path'
import { BACKUP_SOCKET, type BackupAnswer } from './backup-socket'
import { ConfigError, loadConfig } from './config'
import type { BackupReport } from './store/port'
import { backupStoppedDataDir, BackupInvalidError, restoreBackup } from './store/sqlite/backup'
import { assertDataDirFree, DataDirInUseError } from './store/sqlite/database'

async function main(command: string | undefined, folder: string | undefined): Promise<string> {
  if ((command !== 'backup' && command !== 'restore') || !folder) {
    throw new UsageError('Usage: npm run backup -- <new folder>   or   npm run restore -- <backup folder>')
  }
  const config = loadConfig()
  if (config.mongodbUri) {
    throw new UsageError('This server keeps its data in MongoDB (MONGODB_URI): back it up with mongodump or your provider’s backups')
  }
  const target = path.resolve(folder)
  if (command === 'backup') {
    const report = (await askServer(config.dataDir, target)) ?? (await backupStoppedDataDir(config.dataDir, target))
    return `Backed up ${config.dataDir} into ${target}: ${describe(report)}`
  }
  assertDataDirFree(config.dataDir)
  const { report, movedAside } = await restoreBackup(target, config.dataDir)
  return `Restored the backup ${target} into ${config.dataDir}: ${describe(report)}\nWhat was there before is in ${movedAside}. Start the server now.`
}

/** The running server's answer, or undefined when no server listens on the data folder. */
function askServer(dataDir: string, into: string): Promise<BackupReport | undefined> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(path.join(dataDir, BACKUP_SOCKET))
    let reply = ''
    socket.setEncoding('utf8')
    socket.on('connect', () => socket.write(`${JSON.stringify({ into })}\n`))
    socket.on('data', (chunk: string) => (reply += chunk))
    socket.on('end', () => {
      try {
        const answer = JSON.parse(reply) as BackupAnswer
        if (answer.ok) resolve(answer.report)
        else reject(new UsageError(`The server could not make the backup: ${answer.error}`))
      } catch {
        reject(new UsageError('The server gave no answer to the backup request'))
      }
    })
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(undefined)
      else reject(error)
    })
  })
}

function describe(report: BackupReport): string {
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`
  const taken = new Date(report.takenAt).toISOString()
  return `database ${mb(report.databaseBytes)} as of ${taken}, ${report.files} files (${mb(report.fileBytes)})`
}

class UsageError extends Error {}

main(process.argv[2], process.argv[3]).then(
  (message) => console.log(message),
  (error: unknown) => {
    const known = [UsageError, ConfigError, BackupInvalidError, DataDirInUseError].some((kind) => error instanceof kind)
    console.error(known ? (error as Error).message : error)
    process.exitCode = 1
  },
)
