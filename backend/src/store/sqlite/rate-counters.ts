/**
 * Fixed-window rate counters in SQLite, so limits hold across restarts. A counter is not worth waiting
 * for a disk sync: a hit answers at once, without the store's commit sync (a power cut may forget the last
 * hits, never a user's data).
 */
import type { RateCounter } from '../port'
import { guarded, type Db } from './database'

/** Expired windows are removed every this many hits. */
const SWEEP_EVERY = 1000

export class SqliteRateCounters {
  private hits = 0
  private readonly sql

  constructor(db: Db) {
    this.sql = {
      hit: db.prepare<{ key: string; now: number; end: number }, { window_end: number; points: number }>(
        `INSERT INTO rate_counters (key, window_end, points) VALUES (@key, @end, 1)
         ON CONFLICT (key) DO UPDATE SET
           points = CASE WHEN window_end <= @now THEN 1 ELSE points + 1 END,
           window_end = CASE WHEN window_end <= @now THEN @end ELSE window_end END
         RETURNING window_end, points`,
      ),
      sweep: db.prepare<[number]>('DELETE FROM rate_counters WHERE window_end <= ?'),
    }
  }

  counter(options: { name: string; points: number; durationSeconds: number }): RateCounter {
    return {
      hit: (key) =>
        guarded(() => {
          const now = Date.now()
          if (++this.hits % SWEEP_EVERY === 0) this.sql.sweep.run(now)
          const counted = this.sql.hit.get({ key: `${options.name}:${key}`, now, end: now + options.durationSeconds * 1000 })!
          return counted.points <= options.points ? 0 : Math.max(1, counted.window_end - now)
        }),
    }
  }
}
