/**
 * Discord upload jobs in SQLite (the discord_uploads table): the record as JSON in `doc`, claimed with one UPDATE
 * whose WHERE names the queue's first row, so two claimants never get the same one and none skips the queue.
 * A turn kept through a 429 is a lease with no owner until the retry time; a job backing off has a retry_at.
 * The queue is in the order jobs became ready, COALESCE(retry_at, created_at): it holds the unfinished jobs
 * only (the partial index on state), sorted as claimed.
 */
import type {
  DiscordUploadJob,
  DiscordUploadOutcome,
  DiscordUploadProgress,
  DiscordUploadRecord,
  DiscordUploadRepository,
  NewDiscordUpload,
} from '../discord-uploads-port'
import { guarded, type Db } from './database'

interface Row {
  id: string
  state: DiscordUploadRecord['state']
  created_at: number
  doc: string
}

type Doc = Omit<DiscordUploadRecord, 'id' | 'state' | 'createdAt' | 'updatedAt'> & { updatedAt: number }

function fromRow(row: Row): DiscordUploadRecord {
  const { updatedAt, ...doc } = JSON.parse(row.doc) as Doc
  return { id: row.id, ...doc, state: row.state, createdAt: new Date(row.created_at), updatedAt: new Date(updatedAt) }
}

const docOf = ({ id: _id, state: _state, createdAt: _createdAt, updatedAt, ...rest }: DiscordUploadRecord) =>
  JSON.stringify({ ...rest, updatedAt: updatedAt.getTime() })

export class SqliteDiscordUploads implements DiscordUploadRepository {
  private readonly sql

  constructor(private readonly db: Db) {
    this.sql = {
      get: db.prepare<[string], Row>('SELECT id, state, created_at, doc FROM discord_uploads WHERE id = ?'),
      hasState: db.prepare<[string], { found: number }>('SELECT 1 AS found FROM discord_uploads WHERE state_hash = ?'),
      insert: db.prepare<{ id: string; state_hash: string; created_at: number; doc: string }>(
        `INSERT INTO discord_uploads (id, state_hash, state, created_at, doc) VALUES (@id, @state_hash, 'waiting', @created_at, @doc)
         ON CONFLICT (state_hash) DO NOTHING`,
      ),
      claim: db.prepare<{ owner: string; until: number; now: number }, Row>(
        `UPDATE discord_uploads SET lease_owner = @owner, lease_until = @until, state = 'uploading', retry_at = NULL
         WHERE id = (SELECT id FROM discord_uploads WHERE state IN ('waiting', 'uploading')
                     ORDER BY COALESCE(retry_at, created_at), id LIMIT 1)
           AND (lease_until IS NULL OR lease_until <= @now) AND (retry_at IS NULL OR retry_at <= @now)
         RETURNING id, state, created_at, doc`,
      ),
      renew: db.prepare<{ id: string; owner: string; until: number }>(
        'UPDATE discord_uploads SET lease_until = @until WHERE id = @id AND lease_owner = @owner',
      ),
      held: db.prepare<{ id: string; owner: string }, Row>(
        'SELECT id, state, created_at, doc FROM discord_uploads WHERE id = @id AND lease_owner = @owner',
      ),
      write: db.prepare<{
        id: string
        owner: string
        doc: string
        state: string
        retry_at: number | null
        release: number
        turn_until: number | null
      }>(
        `UPDATE discord_uploads SET doc = @doc, state = @state, retry_at = @retry_at,
         lease_owner = CASE WHEN @release = 1 THEN NULL ELSE lease_owner END,
         lease_until = CASE WHEN @release = 1 THEN @turn_until ELSE lease_until END
         WHERE id = @id AND lease_owner = @owner`,
      ),
      nextRetry: db.prepare<[], { at: number | null }>(
        `SELECT MIN(COALESCE(retry_at, CASE WHEN lease_owner IS NULL THEN lease_until END)) AS at
         FROM discord_uploads WHERE state IN ('waiting', 'uploading')`,
      ),
    }
  }

  create(job: NewDiscordUpload): Promise<DiscordUploadRecord | undefined> {
    return guarded(() => {
      const record: DiscordUploadRecord = {
        id: job.id,
        stateHash: job.stateHash,
        account: job.account,
        packId: job.packId,
        guildId: job.guildId,
        state: 'waiting',
        uploaded: [],
        notFitted: [],
        createdAt: job.now,
        updatedAt: job.now,
      }
      const made = this.sql.insert.run({ id: job.id, state_hash: job.stateHash, created_at: job.now.getTime(), doc: docOf(record) })
      return made.changes > 0 ? record : undefined
    })
  }

  get(id: string): Promise<DiscordUploadRecord | undefined> {
    return guarded(() => {
      const row = this.sql.get.get(id)
      return row && fromRow(row)
    })
  }

  hasState(stateHash: string): Promise<boolean> {
    return guarded(() => this.sql.hasState.get(stateHash) !== undefined)
  }

  claim(options: { owner: string; leaseMs: number; now: Date }): Promise<DiscordUploadJob | undefined> {
    return guarded(() => {
      const until = options.now.getTime() + options.leaseMs
      const row = this.sql.claim.get({ owner: options.owner, until, now: options.now.getTime() })
      return row && { record: fromRow(row), owner: options.owner, leaseUntil: new Date(until) }
    })
  }

  renew(job: DiscordUploadJob, until: Date): Promise<boolean> {
    return guarded(() => this.sql.renew.run({ id: job.record.id, owner: job.owner, until: until.getTime() }).changes > 0)
  }

  save(job: DiscordUploadJob, progress: DiscordUploadProgress, now: Date): Promise<boolean> {
    return this.update(job, now, false, ({ tier: _tier, pending: _pending, ...record }) => ({
      ...record,
      uploaded: progress.uploaded,
      notFitted: progress.notFitted,
      ...(progress.tier !== undefined ? { tier: progress.tier } : {}),
      ...(progress.pending ? { pending: progress.pending } : {}),
    }))
  }

  finish(job: DiscordUploadJob, outcome: DiscordUploadOutcome, now: Date): Promise<boolean> {
    return this.update(job, now, true, (record) => {
      const { reason: _reason, ...rest } = record
      if ('retryAt' in outcome) {
        const wait = outcome.keepsTurn ? { turnUntil: outcome.retryAt } : { retryAt: outcome.retryAt }
        return { ...rest, state: 'waiting', reason: outcome.reason, ...wait }
      }
      return { ...rest, state: outcome.state, ...('reason' in outcome ? { reason: outcome.reason } : {}) }
    })
  }

  nextRetry(): Promise<Date | undefined> {
    return guarded(() => {
      const at = this.sql.nextRetry.get()?.at
      return at === null || at === undefined ? undefined : new Date(at)
    })
  }

  /** Reads and writes the held row in one transaction; answers whether the owner held it. */
  private update(
    job: DiscordUploadJob,
    now: Date,
    release: boolean,
    change: (record: DiscordUploadRecord) => DiscordUploadRecord & { retryAt?: Date; turnUntil?: Date },
  ): Promise<boolean> {
    return guarded(() =>
      this.db.transaction(() => {
        const row = this.sql.held.get({ id: job.record.id, owner: job.owner })
        if (!row) return false
        const { retryAt, turnUntil, ...record } = change(fromRow(row))
        record.updatedAt = now
        const written = this.sql.write.run({
          id: job.record.id,
          owner: job.owner,
          doc: docOf(record),
          state: record.state,
          retry_at: retryAt?.getTime() ?? null,
          release: release ? 1 : 0,
          turn_until: turnUntil?.getTime() ?? null,
        })
        return written.changes > 0
      })(),
    )
  }
}
