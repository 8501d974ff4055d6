import { z } from 'zod'

/** One backup of the embedded store (GET and POST /api/backups, admins only). */
export const backupSchema = z.object({
  /** The backup's folder in the server's BACKUP_DIR. */
  name: z.string(),
  /** ISO time the database copy was finished: it holds every write acknowledged before then. */
  takenAt: z.string(),
  schemaVersion: z.number().int(),
  databaseBytes: z.number().int(),
  /** Stored files (and their bytes) in the backup. */
  files: z.number().int(),
  fileBytes: z.number().int(),
  /** Files shared with the backup before it (hard links) rather than copied again. */
  linkedFiles: z.number().int(),
})
export type ApiBackup = z.infer<typeof backupSchema>

export const backupListSchema = z.object({ backups: z.array(backupSchema) })
