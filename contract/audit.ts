import { z } from 'zod'
import { PAGE_SIZE_MAX } from './limits'
import { cursorSchema } from './paging'

/** What the admin Activity page lists: every admin action, newest first. */
export const auditActions = [
  'wumpus.publish',
  'wumpus.edit',
  'wumpus.delete',
  'user.make-admin',
  'user.end-sessions',
  'pack.create',
  'pack.edit',
  'pack.delete',
  'submission.publish',
  'submission.changes',
  'submission.refuse',
  'report.dismiss',
  'report.hide',
  'report.restore',
  'report.delete',
] as const
export type AuditActionName = (typeof auditActions)[number]
export const auditTargets = ['wumpus', 'user', 'pack', 'submission'] as const
export type AuditTargetType = (typeof auditTargets)[number]

/** The actor of roles given by the server's ADMIN_EMAILS setting rather than by a person. */
export const CONFIG_ACTOR = 'ADMIN_EMAILS'

export const activityEntrySchema = z.object({
  id: z.string(),
  /** ISO time. */
  at: z.string(),
  /** Email of who did it, or CONFIG_ACTOR. */
  actor: z.string(),
  action: z.enum(auditActions),
  target: z.object({ type: z.enum(auditTargets), id: z.string(), name: z.string() }),
  changes: z.array(z.object({ field: z.string(), from: z.string().optional(), to: z.string().optional() })),
})
export type ActivityEntry = z.infer<typeof activityEntrySchema>
export const activityListSchema = z.array(activityEntrySchema)

/** GET /api/activity: paged like the gallery (`Link: <…>; rel="next"`). */
export const activityQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(50),
    cursor: cursorSchema.optional(),
  })
  .strict()
