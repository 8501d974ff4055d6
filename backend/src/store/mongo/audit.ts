/** The audit log in MongoDB: the `audit` collection, newest first. */
import type { Collection, Db, Filter } from 'mongodb'
import { newId } from '../ids'
import { decodeCursor, newestKey, pageOf } from '../list-order'
import { afterNewest } from './paging'
import type { AuditRecord, AuditRepository, NewAuditRecord } from '../port'
import { toAuditRecord } from '../records'
import { guard } from './errors'

type AuditDocument = Omit<AuditRecord, 'id'> & { _id: string }

export const AUDIT_NEWEST_FIRST = { at: -1, _id: -1 } as const

export class MongoAudit implements AuditRepository {
  private readonly audit: Collection<AuditDocument>
  private lastAt = 0

  constructor(db: Db) {
    this.audit = db.collection<AuditDocument>('audit')
  }

  async append(entry: NewAuditRecord): Promise<AuditRecord> {
    // Entries made here keep their order even within one millisecond.
    const at = new Date(Math.max(Date.now(), this.lastAt + 1))
    this.lastAt = at.getTime()
    const record = toAuditRecord({ ...entry, id: newId(at.getTime()), at })
    const { id: _id, ...rest } = record
    await guard(() => this.audit.insertOne({ _id, ...rest }))
    return record
  }

  async list(options: { limit: number; cursor?: string }): Promise<{ items: AuditRecord[]; nextCursor?: string }> {
    // Newest first, paged with the gallery's newest-first cursors.
    const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, 'new')
    const filter: Filter<AuditDocument> = after ? { $or: afterNewest(after, 'at', '_id') } : {}
    const docs = await guard(() =>
      this.audit
        .find(filter)
        .sort(AUDIT_NEWEST_FIRST)
        .limit(options.limit + 1)
        .toArray(),
    )
    return pageOf(docs, options.limit, {
      items: (page) => page.map((doc) => toAuditRecord({ ...doc, id: doc._id })),
      key: (entry) => newestKey(entry.at, entry.id),
    })
  }
}
