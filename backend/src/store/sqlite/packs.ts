/** Sticker packs in SQLite; `pack_members` says which packs hold an animation, so deleting one touches only those. */
import { isId, newId } from '../ids'
import { decodeCursor, encodeCursor } from '../list-order'
import type { NewPack, PackPatch, PackRecord, PackRepository } from '../port'
import { newPackRecord, packWithout, patchedPack, toPackRecord } from '../records'
import { guarded, json, type Db } from './database'

interface PackRow {
  id: string
  name: string
  description: string
  cover_wumpus_id: string | null
  wumpus_ids: string
  created_by: string
  created_at: number
  updated_at: number
}

function fromRow(row: PackRow): PackRecord {
  return toPackRecord({
    id: row.id,
    name: row.name,
    description: row.description,
    coverWumpusId: row.cover_wumpus_id,
    wumpusIds: json.read<string[]>(row.wumpus_ids),
    createdBy: row.created_by,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  })
}

export function toPackRow(pack: PackRecord): PackRow {
  return {
    id: pack.id,
    name: pack.name,
    description: pack.description,
    cover_wumpus_id: pack.coverWumpusId,
    wumpus_ids: json.write(pack.wumpusIds),
    created_by: pack.createdBy,
    created_at: pack.createdAt.getTime(),
    updated_at: pack.updatedAt.getTime(),
  }
}

export class SqlitePacks implements PackRepository {
  private readonly sql

  constructor(private readonly db: Db) {
    this.sql = {
      get: db.prepare<[string], PackRow>('SELECT * FROM packs WHERE id = ?'),
      page: db.prepare<[number], PackRow>('SELECT * FROM packs ORDER BY created_at DESC, id DESC LIMIT ?'),
      pageAfter: db.prepare<[number, string, number], PackRow>(
        'SELECT * FROM packs WHERE (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?',
      ),
      count: db.prepare<[], { count: number }>('SELECT count(*) AS count FROM packs'),
      upsert: db.prepare(
        `INSERT OR REPLACE INTO packs (id, name, description, cover_wumpus_id, wumpus_ids, created_by, created_at, updated_at)
         VALUES (@id, @name, @description, @cover_wumpus_id, @wumpus_ids, @created_by, @created_at, @updated_at)`,
      ),
      delete: db.prepare<[string]>('DELETE FROM packs WHERE id = ?'),
      addMember: db.prepare<[string, string]>('INSERT OR IGNORE INTO pack_members (wumpus_id, pack_id) VALUES (?, ?)'),
      removeMembers: db.prepare<[string]>('DELETE FROM pack_members WHERE pack_id = ?'),
      holding: db.prepare<[string], PackRow>('SELECT p.* FROM pack_members m JOIN packs p ON p.id = m.pack_id WHERE m.wumpus_id = ?'),
      removeWumpus: db.prepare<[string]>('DELETE FROM pack_members WHERE wumpus_id = ?'),
    }
  }

  list(options: { limit: number; cursor?: string }): Promise<{ items: PackRecord[]; total: number; nextCursor?: string }> {
    return guarded(() => {
      const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, 'new')
      const rows = after ? this.sql.pageAfter.all(after.time, after.id, options.limit + 1) : this.sql.page.all(options.limit + 1)
      const items = rows.slice(0, options.limit).map(fromRow)
      const total = this.sql.count.get()!.count
      const last = items.at(-1)
      return rows.length > options.limit && last
        ? { items, total, nextCursor: encodeCursor({ rank: 0, time: last.createdAt.getTime(), id: last.id }, 'new') }
        : { items, total }
    })
  }

  get(id: string): Promise<PackRecord | undefined> {
    return guarded(() => {
      const row = isId(id) ? this.sql.get.get(id) : undefined
      return row && fromRow(row)
    })
  }

  insert(pack: NewPack): Promise<PackRecord> {
    return guarded(() => {
      const now = new Date()
      const record = newPackRecord(newId(now.getTime()), pack, now)
      this.db.transaction(() => this.write(record))()
      return record
    })
  }

  update(id: string, patch: PackPatch): Promise<PackRecord | undefined> {
    return guarded(() => {
      const row = isId(id) ? this.sql.get.get(id) : undefined
      if (!row) return undefined
      const updated = patchedPack(fromRow(row), patch, new Date())
      this.db.transaction(() => this.write(updated))()
      return updated
    })
  }

  delete(id: string): Promise<number> {
    return guarded(() =>
      this.db.transaction(() => {
        this.sql.removeMembers.run(id)
        return this.sql.delete.run(id).changes
      })(),
    )
  }

  /** Takes an animation out of every pack holding it; runs inside the caller's transaction. */
  removeWumpus(wumpusId: string, now: Date): void {
    for (const row of this.sql.holding.all(wumpusId)) {
      const pack = packWithout(fromRow(row), wumpusId, now)
      if (pack) this.sql.upsert.run(toPackRow(pack))
    }
    this.sql.removeWumpus.run(wumpusId)
  }

  /** Stores a pack and its membership rows; runs inside the caller's transaction. */
  write(pack: PackRecord): void {
    this.sql.upsert.run(toPackRow(pack))
    this.sql.removeMembers.run(pack.id)
    for (const wumpusId of pack.wumpusIds) this.sql.addMember.run(wumpusId, pack.id)
  }
}
