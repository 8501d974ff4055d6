import Router from '@koa/router'
import type { ApiBackup } from '../../../contract/backups'
import { requireAdmin, requireSession, sessionOf } from '../http/require-session'
import type { BackupSummary } from '../services/backups'
import type { RouteDeps } from './route-deps'

/** GET /backups (the backups in BACKUP_DIR, newest first) and POST /backups (make one now): admins only. */
export function backupRoutes(deps: RouteDeps): Router {
  const { backups, logger } = deps
  const router = new Router()
  const admin = [requireSession(deps.sessions), requireAdmin(deps.accounts, 'Only admins can back up the gallery')] as const

  router.get('/backups', ...admin, async (ctx) => {
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { backups: (await backups.list()).map(toApiBackup) }
  })

  router.post('/backups', ...admin, async (ctx) => {
    const backup = await backups.backUpNow()
    logger.info('backup made', { by: sessionOf(ctx).email, name: backup.name, files: backup.files })
    ctx.status = 201
    ctx.set('Cache-Control', 'no-store')
    ctx.body = toApiBackup(backup)
  })

  return router
}

function toApiBackup(backup: BackupSummary): ApiBackup {
  return {
    name: backup.name,
    takenAt: backup.takenAt.toISOString(),
    schemaVersion: backup.schemaVersion,
    databaseBytes: backup.databaseBytes,
    files: backup.files,
    fileBytes: backup.fileBytes,
    linkedFiles: backup.linkedFiles,
  }
}
