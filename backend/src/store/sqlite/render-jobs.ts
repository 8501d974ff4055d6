/**
 * Render jobs in SQLite: columns of the animation's row (migration 3), claimed with one UPDATE whose
 * WHERE picks a due row, so two claimants never get the same one.
 */
import { isId } from '../ids'
import type { RenderJob, RenderJobRepository } from '../port'
import { guarded, type Db } from './database'
import { wumpusFromRow, type WumpusRow } from './wumpuses'

/** Below the version asked for, lease free or ended, and no retry time of a failure at that version ahead. */
const DUE = `rendered_version < @version
  AND (render_until IS NULL OR render_until <= @now)
  AND (render_retry_at IS NULL OR render_retry_at <= @now OR render_failed_version < @version)`

interface ClaimParams {
  owner: string
  until: number
  version: number
  now: number
  id?: string
}

export class SqliteRenderJobs implements RenderJobRepository {
  private readonly sql

  constructor(db: Db) {
    const claim = (which: string) =>
      db.prepare<ClaimParams, WumpusRow>(
        `UPDATE wumpuses SET render_owner = @owner, render_until = @until
         WHERE seq = (SELECT seq FROM wumpuses WHERE ${which} ${DUE} LIMIT 1) RETURNING *`,
      )
    this.sql = {
      claimAny: claim(''),
      claimOne: claim('id = @id AND'),
      renew: db.prepare<{ id: string; owner: string; until: number }>(
        'UPDATE wumpuses SET render_until = @until WHERE id = @id AND render_owner = @owner',
      ),
      release: db.prepare<{ id: string; owner: string }>(
        'UPDATE wumpuses SET render_owner = NULL, render_until = NULL WHERE id = @id AND render_owner = @owner',
      ),
      fail: db.prepare<{ id: string; owner: string; lottie: string; failures: number; version: number; retryAt: number }>(
        `UPDATE wumpuses SET render_owner = NULL, render_until = NULL,
         render_failures = @failures, render_failed_version = @version, render_retry_at = @retryAt
         WHERE id = @id AND render_owner = @owner AND json_extract(files, '$.lottie.id') = @lottie`,
      ),
    }
  }

  claim(options: { owner: string; version: number; leaseMs: number; now: Date; id?: string }): Promise<RenderJob | undefined> {
    return guarded(() => {
      if (options.id !== undefined && !isId(options.id)) return undefined
      const until = options.now.getTime() + options.leaseMs
      const params: ClaimParams = { owner: options.owner, until, version: options.version, now: options.now.getTime() }
      const row = options.id === undefined ? this.sql.claimAny.get(params) : this.sql.claimOne.get({ ...params, id: options.id })
      if (!row) return undefined
      return {
        record: wumpusFromRow(row),
        owner: options.owner,
        leaseUntil: new Date(until),
        version: options.version,
        failures: row.render_failed_version === options.version ? row.render_failures : 0,
      }
    })
  }

  renew(job: RenderJob, until: Date): Promise<boolean> {
    return guarded(() => this.sql.renew.run({ id: job.record._id, owner: job.owner, until: until.getTime() }).changes > 0)
  }

  release(job: RenderJob, failure?: { retryAt: Date }): Promise<boolean> {
    return guarded(() => {
      const held = { id: job.record._id, owner: job.owner }
      const failed =
        failure &&
        this.sql.fail.run({
          ...held,
          lottie: job.record.files.lottie.id,
          failures: job.failures + 1,
          version: job.version,
          retryAt: failure.retryAt.getTime(),
        }).changes > 0
      return failed || this.sql.release.run(held).changes > 0
    })
  }
}
