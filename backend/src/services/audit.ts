import type { Logger } from '../logger'
import type { AuditChange, AuditRecord, NewAuditRecord, Store, WumpusRecord } from '../store/port'

/** The admin audit log: who did what to which animation or user, and what changed. */
export interface AuditLog {
  /**
   * Records an action that has happened. A failure to record is logged, not thrown: the action
   * itself succeeded and its answer must say so.
   */
  record(entry: NewAuditRecord): Promise<void>
  list(options: { limit: number; cursor?: string }): Promise<{ items: AuditRecord[]; nextCursor?: string }>
}

export function createAuditLog(store: Store, logger: Logger): AuditLog {
  return {
    async record(entry) {
      try {
        await store.audit.append(entry)
      } catch (error) {
        logger.error('could not record an admin action', { entry, error: String(error) })
      }
    },
    list: (options) => store.audit.list(options),
  }
}

type WumpusFields = Pick<WumpusRecord, 'name' | 'description' | 'files'> & Partial<Pick<WumpusRecord, 'sensitive'>>

/** The fields of an animation as the log shows them: text, and each file as its name and id. */
function wumpusFields(record: WumpusFields): Record<string, string> {
  const file = (ref: WumpusRecord['files']['gif']) => `${ref.filename} (${ref.id})`
  return {
    name: record.name,
    description: record.description,
    gif: file(record.files.gif),
    apng: file(record.files.apng),
    lottie: file(record.files.lottie),
    // Shown while set: marking one sensitive, or no longer, is in the log.
    ...(record.sensitive ? { sensitive: 'yes' } : {}),
  }
}

/** What differs between two versions of an animation; a missing side is a publish or a delete. */
export function wumpusChanges(before: WumpusFields | undefined, after: WumpusFields | undefined): AuditChange[] {
  return fieldChanges(before ? wumpusFields(before) : {}, after ? wumpusFields(after) : {})
}

/** The fields that differ between two versions of something, as text; a missing side is a create or a delete. */
export function fieldChanges(from: Record<string, string>, to: Record<string, string>): AuditChange[] {
  return Object.keys({ ...from, ...to })
    .filter((field) => from[field] !== to[field])
    .map((field) => ({
      field,
      ...(from[field] === undefined ? {} : { from: from[field] }),
      ...(to[field] === undefined ? {} : { to: to[field] }),
    }))
}
