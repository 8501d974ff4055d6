/** Favourites in SQLite: the `favourites` table, keyed (email, animation id). */
import { decodeCursor, newestKey, pageOf } from '../list-order'
import type { FavouriteAdded, FavouriteRecord, FavouriteRepository } from '../port'
import { guarded, type Db } from './database'

interface FavouriteRow {
  wumpus_id: string
  favourited_at: number
}

const fromRow = (row: FavouriteRow): FavouriteRecord => ({ wumpusId: row.wumpus_id, favouritedAt: new Date(row.favourited_at) })

export class SqliteFavourites implements FavouriteRepository {
  private readonly sql

  constructor(private readonly db: Db) {
    const columns = 'SELECT wumpus_id, favourited_at FROM favourites'
    const newest = 'ORDER BY favourited_at DESC, wumpus_id DESC'
    this.sql = {
      has: db.prepare<[string, string], { one: number }>('SELECT 1 AS one FROM favourites WHERE email = ? AND wumpus_id = ?'),
      count: db.prepare<[string], { count: number }>('SELECT count(*) AS count FROM favourites WHERE email = ?'),
      insert: db.prepare<[string, string, number]>('INSERT INTO favourites (email, wumpus_id, favourited_at) VALUES (?, ?, ?)'),
      delete: db.prepare<[string, string]>('DELETE FROM favourites WHERE email = ? AND wumpus_id = ?'),
      page: db.prepare<[string, number], FavouriteRow>(`${columns} WHERE email = ? ${newest} LIMIT ?`),
      pageAfter: db.prepare<[string, number, string, number], FavouriteRow>(
        `${columns} WHERE email = ? AND (favourited_at, wumpus_id) < (?, ?) ${newest} LIMIT ?`,
      ),
      ids: db.prepare<[string], { wumpus_id: string }>(`SELECT wumpus_id FROM favourites WHERE email = ? ${newest}`),
      removeWumpus: db.prepare<[string]>('DELETE FROM favourites WHERE wumpus_id = ?'),
    }
  }

  add(email: string, wumpusId: string, options: { max: number; at?: Date }): Promise<FavouriteAdded> {
    return guarded(() =>
      this.db.transaction((): FavouriteAdded => {
        if (this.sql.has.get(email, wumpusId)) return 'kept'
        if (this.sql.count.get(email)!.count >= options.max) return 'full'
        this.sql.insert.run(email, wumpusId, (options.at ?? new Date()).getTime())
        return 'added'
      })(),
    )
  }

  remove(email: string, wumpusId: string): Promise<boolean> {
    return guarded(() => this.sql.delete.run(email, wumpusId).changes > 0)
  }

  list(
    email: string,
    options: { limit: number; cursor?: string },
  ): Promise<{ items: FavouriteRecord[]; total: number; nextCursor?: string }> {
    return guarded(() => {
      const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, 'new')
      const rows = after
        ? this.sql.pageAfter.all(email, after.time, after.id, options.limit + 1)
        : this.sql.page.all(email, options.limit + 1)
      const total = this.sql.count.get(email)!.count
      const page = pageOf(rows, options.limit, {
        items: (shown) => shown.map(fromRow),
        key: (favourite) => newestKey(favourite.favouritedAt, favourite.wumpusId),
      })
      return { ...page, total }
    })
  }

  ids(email: string): Promise<string[]> {
    return guarded(() => this.sql.ids.all(email).map((row) => row.wumpus_id))
  }

  /** Forgets a deleted animation in everyone's favourites; runs inside the caller's transaction. */
  removeWumpus(wumpusId: string): void {
    this.sql.removeWumpus.run(wumpusId)
  }
}
