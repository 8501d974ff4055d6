/**
 * Telegram sets in SQLite (the telegram_sets table, one row per pack and kind), claimed with one UPDATE whose WHERE picks a due row,
 * so two claimants never get the same one.
 */
import type {
  TelegramSetJob,
  TelegramSetKind,
  TelegramSetOutcome,
  TelegramSetProgress,
  TelegramSetRecord,
  TelegramSetRepository,
} from '../port'
import { guarded, type Db } from './database'

interface TelegramSetRow {
  pack_id: string
  kind: TelegramSetKind
  name: string
  state: TelegramSetRecord['state']
  reason: string | null
  removing: number
  generation: number
  progress: string
  lease_owner: string | null
  lease_until: number | null
  retry_at: number | null
  owner_user_id: number | null
  updated_at: number
}

const NO_PROGRESS: TelegramSetProgress = { created: false, stickers: [], pending: [] }

function fromRow(row: TelegramSetRow): TelegramSetRecord {
  const progress = JSON.parse(row.progress) as TelegramSetProgress
  return {
    packId: row.pack_id,
    kind: row.kind,
    name: row.name,
    state: row.state,
    ...(row.reason !== null ? { reason: row.reason } : {}),
    removing: row.removing === 1,
    generation: row.generation,
    created: progress.created,
    ...(progress.title !== undefined ? { title: progress.title } : {}),
    stickers: progress.stickers,
    pending: progress.pending,
    ...(row.owner_user_id !== null ? { ownerUserId: row.owner_user_id } : {}),
    updatedAt: new Date(row.updated_at),
  }
}

/** A set's key as the statements take it. */
interface Key {
  pack_id: string
  kind: TelegramSetKind
}

const keyOf = (job: TelegramSetJob): Key => ({ pack_id: job.record.packId, kind: job.record.kind })

const progressJson = ({ created, title, stickers, pending }: TelegramSetProgress) => JSON.stringify({ created, title, stickers, pending })

export class SqliteTelegramSets implements TelegramSetRepository {
  private readonly sql

  constructor(db: Db) {
    this.sql = {
      get: db.prepare<[string, string], TelegramSetRow>('SELECT * FROM telegram_sets WHERE pack_id = ? AND kind = ?'),
      insert: db.prepare<Key & { name: string; removing: number; progress: string; owner: number | null; now: number }>(
        `INSERT INTO telegram_sets (pack_id, kind, name, state, removing, generation, progress, owner_user_id, updated_at)
         VALUES (@pack_id, @kind, @name, 'making', @removing, 1, @progress, @owner, @now)
         ON CONFLICT (pack_id, kind) DO NOTHING`,
      ),
      request: db.prepare<Key & { removing: number; now: number }, TelegramSetRow>(
        `UPDATE telegram_sets SET state = 'making', reason = NULL, retry_at = NULL, generation = generation + 1,
         removing = MAX(removing, @removing), updated_at = @now WHERE pack_id = @pack_id AND kind = @kind RETURNING *`,
      ),
      // Every set of a pack one of whose sets holds the animation.
      requestHolding: db.prepare<{ wumpus_id: string; now: number }>(
        `UPDATE telegram_sets SET state = 'making', reason = NULL, retry_at = NULL, generation = generation + 1, updated_at = @now
         WHERE pack_id IN (SELECT pack_id FROM telegram_sets AS holding WHERE EXISTS (SELECT 1 FROM json_each(holding.progress, '$.stickers')
           WHERE json_extract(value, '$.wumpusId') = @wumpus_id))`,
      ),
      claim: db.prepare<{ owner: string; until: number; now: number }, TelegramSetRow>(
        `UPDATE telegram_sets SET lease_owner = @owner, lease_until = @until
         WHERE (pack_id, kind) = (SELECT pack_id, kind FROM telegram_sets WHERE state = 'making'
           AND (lease_until IS NULL OR lease_until <= @now) AND (retry_at IS NULL OR retry_at <= @now)
           ORDER BY updated_at LIMIT 1)
         RETURNING *`,
      ),
      renew: db.prepare<Key & { owner: string; until: number }>(
        'UPDATE telegram_sets SET lease_until = @until WHERE pack_id = @pack_id AND kind = @kind AND lease_owner = @owner',
      ),
      save: db.prepare<Key & { owner: string; progress: string; user: number | null }>(
        `UPDATE telegram_sets SET progress = @progress, owner_user_id = COALESCE(@user, owner_user_id)
         WHERE pack_id = @pack_id AND kind = @kind AND lease_owner = @owner`,
      ),
      end: db.prepare<Key & { owner: string; generation: number; state: string | null; reason: string | null }>(
        `UPDATE telegram_sets SET lease_owner = NULL, lease_until = NULL,
         state = CASE WHEN generation = @generation AND @state IS NOT NULL THEN @state ELSE state END,
         reason = CASE WHEN generation = @generation AND @state IS NOT NULL THEN @reason ELSE reason END
         WHERE pack_id = @pack_id AND kind = @kind AND lease_owner = @owner`,
      ),
      retry: db.prepare<Key & { owner: string; retry_at: number; reason: string }>(
        `UPDATE telegram_sets SET lease_owner = NULL, lease_until = NULL, retry_at = @retry_at, reason = @reason
         WHERE pack_id = @pack_id AND kind = @kind AND lease_owner = @owner`,
      ),
      remove: db.prepare<Key & { owner: string; generation: number }>(
        'DELETE FROM telegram_sets WHERE pack_id = @pack_id AND kind = @kind AND lease_owner = @owner AND generation = @generation',
      ),
      nextRetry: db.prepare<[], { at: number | null }>(
        "SELECT MIN(retry_at) AS at FROM telegram_sets WHERE state = 'making' AND retry_at IS NOT NULL",
      ),
    }
  }

  get(packId: string, kind: TelegramSetKind): Promise<TelegramSetRecord | undefined> {
    return guarded(() => {
      const row = this.sql.get.get(packId, kind)
      return row && fromRow(row)
    })
  }

  request(
    packId: string,
    kind: TelegramSetKind,
    options: { name?: string; ownerUserId?: number; remove?: boolean; now: Date },
  ): Promise<TelegramSetRecord | undefined> {
    return guarded(() => {
      const removing = options.remove ? 1 : 0
      const now = options.now.getTime()
      const row = this.sql.request.get({ pack_id: packId, kind, removing, now })
      if (row) return fromRow(row)
      if (options.name === undefined) return undefined
      const owner = options.ownerUserId ?? null
      this.sql.insert.run({ pack_id: packId, kind, name: options.name, removing, progress: progressJson(NO_PROGRESS), owner, now })
      return fromRow(this.sql.get.get(packId, kind)!)
    })
  }

  requestHolding(wumpusId: string, now: Date): Promise<number> {
    return guarded(() => this.sql.requestHolding.run({ wumpus_id: wumpusId, now: now.getTime() }).changes)
  }

  claim(options: { owner: string; leaseMs: number; now: Date }): Promise<TelegramSetJob | undefined> {
    return guarded(() => {
      const until = options.now.getTime() + options.leaseMs
      const row = this.sql.claim.get({ owner: options.owner, until, now: options.now.getTime() })
      return row && { record: fromRow(row), owner: options.owner, leaseUntil: new Date(until) }
    })
  }

  renew(job: TelegramSetJob, until: Date): Promise<boolean> {
    return guarded(() => this.sql.renew.run({ ...keyOf(job), owner: job.owner, until: until.getTime() }).changes > 0)
  }

  save(job: TelegramSetJob, progress: TelegramSetProgress): Promise<boolean> {
    return guarded(
      () =>
        this.sql.save.run({
          ...keyOf(job),
          owner: job.owner,
          progress: progressJson(progress),
          user: progress.ownerUserId ?? null,
        }).changes > 0,
    )
  }

  finish(job: TelegramSetJob, outcome: TelegramSetOutcome): Promise<boolean> {
    return guarded(() => {
      const held = { ...keyOf(job), owner: job.owner }
      if ('retryAt' in outcome) {
        return this.sql.retry.run({ ...held, retry_at: outcome.retryAt.getTime(), reason: outcome.reason }).changes > 0
      }
      if ('removed' in outcome && this.sql.remove.run({ ...held, generation: job.record.generation }).changes > 0) return true
      const state = 'state' in outcome ? outcome.state : null
      const reason = 'reason' in outcome ? outcome.reason : null
      return this.sql.end.run({ ...held, generation: job.record.generation, state, reason }).changes > 0
    })
  }

  nextRetry(): Promise<Date | undefined> {
    return guarded(() => {
      const at = this.sql.nextRetry.get()?.at
      return at === null || at === undefined ? undefined : new Date(at)
    })
  }
}
