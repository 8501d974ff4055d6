/** Sticker packs in SQLite; `pack_members` says which packs hold an animation, so deleting one touches only those. */
import type { PackVisibility } from '../../../../contract/pack'
import { PACK_EDIT_FIELDS, type PackEditField } from '../../../../contract/pack-edits'
import { isId, newId } from '../ids'
import { decodeCursor, newestKey, pageOf } from '../list-order'
import type { NewPack, PackPatch, PackRecord, PackRepository, PackUpdate } from '../port'
import { editedPack, newPackRecord, packWithout, toPackRecord } from '../records'
import { guarded, json, type Db } from './database'

interface PackRow {
  id: string
  name: string
  description: string
  cover_wumpus_id: string | null
  wumpus_ids: string
  visibility: string
  created_by: string
  /** A JSON object: edit field to ms. */
  edited_at: string
  created_at: number
  updated_at: number
}

type Page = { items: PackRecord[]; total: number; nextCursor?: string }

function fromRow(row: PackRow): PackRecord {
  const times = json.read<Partial<Record<PackEditField, number>>>(row.edited_at)
  const editedAt: Partial<Record<PackEditField, Date>> = {}
  for (const field of PACK_EDIT_FIELDS) if (typeof times[field] === 'number') editedAt[field] = new Date(times[field])
  return toPackRecord({
    id: row.id,
    name: row.name,
    description: row.description,
    coverWumpusId: row.cover_wumpus_id,
    wumpusIds: json.read<string[]>(row.wumpus_ids),
    visibility: row.visibility as PackVisibility,
    createdBy: row.created_by,
    editedAt: editedAt as Record<PackEditField, Date>,
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
    visibility: pack.visibility,
    created_by: pack.createdBy,
    edited_at: json.write(Object.fromEntries(PACK_EDIT_FIELDS.map((field) => [field, pack.editedAt[field].getTime()]))),
    created_at: pack.createdAt.getTime(),
    updated_at: pack.updatedAt.getTime(),
  }
}

export class SqlitePacks implements PackRepository {
  private readonly sql

  constructor(private readonly db: Db) {
    // The WHERE terms match the partial indexes' (migration 6) word for word, so SQLite uses them.
    const PUBLIC = "visibility = 'public'"
    const PERSONAL = "created_by = ? AND visibility <> 'public'"
    const newest = 'ORDER BY created_at DESC, id DESC'
    const latest = 'ORDER BY updated_at DESC, id DESC'
    this.sql = {
      get: db.prepare<[string], PackRow>('SELECT * FROM packs WHERE id = ?'),
      page: db.prepare<[number], PackRow>(`SELECT * FROM packs WHERE ${PUBLIC} ${newest} LIMIT ?`),
      pageAfter: db.prepare<[number, string, number], PackRow>(
        `SELECT * FROM packs WHERE ${PUBLIC} AND (created_at, id) < (?, ?) ${newest} LIMIT ?`,
      ),
      count: db.prepare<[], { count: number }>(`SELECT count(*) AS count FROM packs WHERE ${PUBLIC}`),
      personalPage: db.prepare<[string, number], PackRow>(`SELECT * FROM packs WHERE ${PERSONAL} ${latest} LIMIT ?`),
      personalPageAfter: db.prepare<[string, number, string, number], PackRow>(
        `SELECT * FROM packs WHERE ${PERSONAL} AND (updated_at, id) < (?, ?) ${latest} LIMIT ?`,
      ),
      personalCount: db.prepare<[string], { count: number }>(`SELECT count(*) AS count FROM packs WHERE ${PERSONAL}`),
      upsert: db.prepare(
        `INSERT OR REPLACE INTO packs (id, name, description, cover_wumpus_id, wumpus_ids, visibility, created_by, edited_at, created_at, updated_at)
         VALUES (@id, @name, @description, @cover_wumpus_id, @wumpus_ids, @visibility, @created_by, @edited_at, @created_at, @updated_at)`,
      ),
      delete: db.prepare<[string]>('DELETE FROM packs WHERE id = ?'),
      addMember: db.prepare<[string, string]>('INSERT OR IGNORE INTO pack_members (wumpus_id, pack_id) VALUES (?, ?)'),
      removeMembers: db.prepare<[string]>('DELETE FROM pack_members WHERE pack_id = ?'),
      holding: db.prepare<[string], PackRow>('SELECT p.* FROM pack_members m JOIN packs p ON p.id = m.pack_id WHERE m.wumpus_id = ?'),
      removeWumpus: db.prepare<[string]>('DELETE FROM pack_members WHERE wumpus_id = ?'),
    }
  }

  list(options: { limit: number; cursor?: string }): Promise<Page> {
    return guarded(() => {
      const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, 'new')
      const rows = after ? this.sql.pageAfter.all(after.time, after.id, options.limit + 1) : this.sql.page.all(options.limit + 1)
      return packPage(rows, options.limit, this.sql.count.get()!.count, (pack) => pack.createdAt)
    })
  }

  listPersonal(owner: string, options: { limit: number; cursor?: string }): Promise<Page> {
    return guarded(() => {
      const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, 'new')
      const rows = after
        ? this.sql.personalPageAfter.all(owner, after.time, after.id, options.limit + 1)
        : this.sql.personalPage.all(owner, options.limit + 1)
      return packPage(rows, options.limit, this.sql.personalCount.get(owner)!.count, (pack) => pack.updatedAt)
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

  insertPersonal(pack: NewPack & { visibility: 'link' | 'private' }, options: { max: number }): Promise<PackRecord | 'full'> {
    return guarded(() =>
      this.db.transaction((): PackRecord | 'full' => {
        if (this.sql.personalCount.get(pack.createdBy)!.count >= options.max) return 'full'
        const now = new Date()
        const record = newPackRecord(newId(now.getTime()), pack, now)
        this.write(record)
        return record
      })(),
    )
  }

  update(id: string, patch: PackPatch, options: { editedAt?: Date } = {}): Promise<PackUpdate | undefined> {
    return guarded(() =>
      this.db.transaction((): PackUpdate | undefined => {
        const row = isId(id) ? this.sql.get.get(id) : undefined
        if (!row) return undefined
        const now = new Date()
        const { pack, superseded, changed } = editedPack(fromRow(row), patch, options.editedAt ?? now, now)
        if (changed) this.write(pack)
        return { pack, superseded }
      })(),
    )
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

/** One page of packs, its cursor made of `keyTime` and id. */
function packPage(rows: PackRow[], limit: number, total: number, keyTime: (pack: PackRecord) => Date): Page {
  return { ...pageOf(rows, limit, { items: (page) => page.map(fromRow), key: (pack) => newestKey(keyTime(pack), pack.id) }), total }
}
