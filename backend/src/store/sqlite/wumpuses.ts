/** Animations in SQLite: records, their list orders and filters, their words, and the files they claim. */
import {
  fieldWords,
  FIELD_BIT,
  listOrder,
  matchesAsPrefix,
  queryWords,
  SEARCH_FIELDS,
  type ListKey,
  type ListOrder,
} from '../../../../contract/search'
import { EMOJI_FACET, filterFacets, recordFacets, SENSITIVE_EMOJI_FACET, SENSITIVE_TAG_FACET, TAG_FACET } from '../facets'
import { isId } from '../ids'
import { decodeCursor, encodeCursor, pageOf, PageSelector, recordKey } from '../list-order'
import {
  FileInUseError,
  type ColourSlots,
  type CreditEditFields,
  type DerivedMedia,
  type FileRef,
  type EmojiUse,
  type HiddenInfo,
  type ListRemixesOptions,
  type ListWumpusesOptions,
  type NewWumpus,
  type RemixInfo,
  type TagCount,
  type WumpusPage,
  type WumpusPatch,
  type WumpusRecord,
  type WumpusRepository,
} from '../port'
import {
  copyColourSlots,
  copyDerived,
  newWumpusRecord,
  patchedWumpus,
  renderedVersion,
  sameFiles,
  toWumpusRecord,
  wumpusFileIds,
} from '../records'
import type { Statement } from 'better-sqlite3'
import { guarded, json, type Db } from './database'
import type { SqliteFavourites } from './favourites'
import type { SqlitePacks } from './packs'
import { WumpusSearch, type Matches } from './wumpus-search'

export interface WumpusRow {
  seq: number
  id: string
  name: string
  description: string
  u_email: string
  u_name: string
  tags: string
  emoji: string
  keywords: string
  licence: string
  credit: string
  /** 1 for a sensitive animation (WumpusRecord.sensitive), else 0. */
  sensitive: number
  files: string
  derived: string | null
  downloads: number
  created_at: number
  updated_at: number
  /** records.ts renderedVersion: written with the record. */
  rendered_version: number
  /** The render job (sqlite/render-jobs.ts): written by it only, but for the failures a new Lottie resets. */
  render_owner: string | null
  render_until: number | null
  render_failures: number
  render_failed_version: number
  render_retry_at: number | null
  /** Remixes only (RemixInfo as JSON, and its `of`); NULL on every other animation. */
  remix: string | null
  remix_of: string | null
  /** HiddenInfo as JSON (its date as milliseconds) while hidden; NULL otherwise. */
  hidden: string | null
  /** ColourSlots as JSON; NULL until read. */
  colour_slots: string | null
}

/** The columns written from a record. */
type RecordRow = Omit<WumpusRow, 'seq' | 'render_owner' | 'render_until' | 'render_failures' | 'render_failed_version' | 'render_retry_at'>

/** Derived media as stored: its date as milliseconds. */
type StoredDerived = Omit<DerivedMedia, 'madeAt'> & { madeAt: number }

export function toRow(record: WumpusRecord): RecordRow {
  return {
    id: record._id,
    name: record.name,
    description: record.description,
    u_email: record.u_email,
    u_name: record.u_name,
    tags: json.write(record.tags),
    emoji: json.write(record.emoji),
    keywords: json.write(record.keywords),
    licence: record.licence,
    credit: record.credit,
    sensitive: record.sensitive ? 1 : 0,
    files: json.write(record.files),
    derived: record.derived ? json.write({ ...copyDerived(record.derived), madeAt: record.derived.madeAt.getTime() }) : null,
    downloads: record.downloads,
    created_at: record.createdAt.getTime(),
    updated_at: record.updatedAt.getTime(),
    rendered_version: renderedVersion(record),
    remix: record.remix ? json.write(record.remix) : null,
    remix_of: record.remix?.of ?? null,
    hidden: record.hidden ? json.write({ at: record.hidden.at.getTime(), by: record.hidden.by }) : null,
    colour_slots: record.colourSlots ? json.write(copyColourSlots(record.colourSlots)) : null,
  }
}

export function wumpusFromRow(row: WumpusRow): WumpusRecord {
  const derived = row.derived === null ? undefined : json.read<StoredDerived>(row.derived)
  return toWumpusRecord({
    _id: row.id,
    name: row.name,
    description: row.description,
    u_email: row.u_email,
    u_name: row.u_name,
    tags: json.read<string[]>(row.tags),
    emoji: json.read<WumpusRecord['emoji']>(row.emoji),
    keywords: json.read<string[]>(row.keywords),
    licence: row.licence,
    credit: row.credit,
    sensitive: row.sensitive === 1,
    files: json.read<WumpusRecord['files']>(row.files),
    ...(derived ? { derived: { ...derived, madeAt: new Date(derived.madeAt) } } : {}),
    ...(row.remix === null ? {} : { remix: json.read<RemixInfo>(row.remix) }),
    ...(row.colour_slots === null ? {} : { colourSlots: json.read<ColourSlots>(row.colour_slots) }),
    ...(row.hidden === null ? {} : { hidden: hiddenFromJson(row.hidden) }),
    downloads: row.downloads,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  })
}

export class SqliteWumpuses implements WumpusRepository {
  private revisionNumber = 0
  private downloadsRevisionNumber = 0
  private readonly search: WumpusSearch
  /** List totals by filter, until animations come, go or change what they are filtered by. */
  private readonly totals = new Map<string, { facets: string[]; total: number }>()
  /** The tags and emoji in use with their counts, until animations come, go or change them. */
  private tagCounts: CountedFacets | undefined
  private emojiCounts: CountedFacets | undefined
  /** Download counts above 0 by seq, for ordering search matches by popularity; loaded when first needed. */
  private downloads: Map<number, number> | undefined
  private readonly statements = new Map<string, Statement<unknown[], unknown>>()
  private readonly sql

  constructor(
    private readonly db: Db,
    private readonly packs: SqlitePacks,
    private readonly favourites: SqliteFavourites,
  ) {
    this.search = new WumpusSearch(db)
    this.sql = {
      byId: db.prepare<[string], WumpusRow>('SELECT * FROM wumpuses WHERE id = ?'),
      insert: db.prepare(
        `INSERT INTO wumpuses (id, name, description, u_email, u_name, tags, emoji, keywords, licence, credit, sensitive, files, derived, downloads,
         created_at, updated_at, rendered_version, remix, remix_of, colour_slots, hidden)
         VALUES (@id, @name, @description, @u_email, @u_name, @tags, @emoji, @keywords, @licence, @credit, @sensitive, @files, @derived, @downloads,
         @created_at, @updated_at, @rendered_version, @remix, @remix_of, @colour_slots, @hidden)`,
      ),
      update: db.prepare(
        `UPDATE wumpuses SET name = @name, description = @description, u_name = @u_name, tags = @tags, emoji = @emoji,
         keywords = @keywords, licence = @licence, credit = @credit, sensitive = @sensitive, files = @files,
         derived = @derived, updated_at = @updated_at, rendered_version = @rendered_version, remix = @remix, remix_of = @remix_of,
         colour_slots = @colour_slots, hidden = @hidden
         WHERE seq = @seq`,
      ),
      // Nothing a list or search shows: the row alone, while its Lottie is still the one read.
      setColourSlots: db.prepare<[string, string, string]>(
        "UPDATE wumpuses SET colour_slots = ? WHERE id = ? AND json_extract(files, '$.lottie.id') = ?",
      ),
      newRenderJob: db.prepare<[number]>(
        'UPDATE wumpuses SET render_failures = 0, render_failed_version = 0, render_retry_at = NULL WHERE seq = ?',
      ),
      delete: db.prepare<[number]>('DELETE FROM wumpuses WHERE seq = ?'),
      // Every listed animation (remixes and hidden ones are not) has one uploader facet: their counts add up to all of them.
      count: db.prepare<[], { count: number }>(
        "SELECT coalesce(sum(count), 0) AS count FROM facet_counts WHERE facet >= 'u:' AND facet < 'u;'",
      ),
      remixesBy: db.prepare<[string], number>('SELECT count(*) FROM wumpuses WHERE u_email = ? AND remix_of IS NOT NULL').pluck(),
      remixesOf: db.prepare<[string], number>('SELECT count(*) FROM wumpuses WHERE remix_of = ?').pluck(),
      addDownloads: db.prepare<[number, string], { seq: number; downloads: number }>(
        'UPDATE wumpuses SET downloads = downloads + ? WHERE id = ? RETURNING seq, downloads',
      ),
      positiveDownloads: db.prepare<[], [number, number]>(
        'SELECT seq, downloads FROM wumpuses WHERE downloads > 0 AND remix_of IS NULL AND hidden IS NULL',
      ),
      insertWord: db.prepare<[string, number, number, number]>(
        'INSERT INTO wumpus_words (word, seq, fields, created_at) VALUES (?, ?, ?, ?)',
      ),
      deleteWord: db.prepare<[string, number]>('DELETE FROM wumpus_words WHERE word = ? AND seq = ?'),
      insertFacet: db.prepare<[string, number, number, string]>(
        'INSERT INTO wumpus_facets (facet, seq, created_at, id) VALUES (?, ?, ?, ?)',
      ),
      deleteFacets: db.prepare<[number]>('DELETE FROM wumpus_facets WHERE seq = ?'),
      claimant: db.prepare<[string], { seq: number }>('SELECT seq FROM wumpus_files WHERE file_id = ?'),
      claim: db.prepare<[string, number]>('INSERT INTO wumpus_files (file_id, seq) VALUES (?, ?)'),
      releaseClaims: db.prepare<[number]>('DELETE FROM wumpus_files WHERE seq = ?'),
      idOf: db.prepare<[number], string>('SELECT id FROM wumpuses WHERE seq = ?').pluck(),
      byFile: db.prepare<[string], { id: string }>('SELECT w.id FROM wumpus_files c JOIN wumpuses w ON w.seq = c.seq WHERE c.file_id = ?'),
      // Kept by triggers on wumpus_facets (migration 10).
      facetCounts: db.prepare<[string, string], { facet: string; count: number }>(
        'SELECT facet, count FROM facet_counts WHERE facet >= ? AND facet < ?',
      ),
      facetCount: db.prepare<[string], number>('SELECT count FROM facet_counts WHERE facet = ?').pluck(),
    }
  }

  revision(): number {
    return this.revisionNumber
  }

  downloadsRevision(): number {
    return this.downloadsRevisionNumber
  }

  get(id: string): Promise<WumpusRecord | undefined> {
    return guarded(() => {
      const row = isId(id) ? this.sql.byId.get(id) : undefined
      return row && wumpusFromRow(row)
    })
  }

  /** Counted and inserted in one transaction: SQLite has one writer, so concurrent inserts never pass max. */
  insertRemix(wumpus: NewWumpus & { remix: RemixInfo }, options: { max: number }): Promise<WumpusRecord | 'full'> {
    return guarded(() => {
      const record = newWumpusRecord(wumpus, 'remix')
      const stored = this.db.transaction(() => {
        if (this.sql.remixesBy.get(record.u_email)! >= options.max) return false
        this.store(record)
        return true
      })()
      // A remix is in no list, search or count: public caches are left alone.
      return stored ? record : 'full'
    })
  }

  listRemixes(options: ListRemixesOptions): Promise<WumpusPage> {
    return guarded(() => {
      const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, 'new')
      const conditions = ['remix_of IS NOT NULL']
      const params: Record<string, string | number> = {}
      if (options.owner !== undefined) {
        conditions.push('u_email = @owner')
        params.owner = options.owner
      }
      if (options.of !== undefined) {
        conditions.push('remix_of = @of')
        params.of = options.of
      }
      if (conditions.length === 1) throw new Error('Remixes are listed by owner or by original')
      if (options.withoutHidden) conditions.push('hidden IS NULL')
      const where = conditions.join(' AND ')
      const total = this.statement<number>(`SELECT count(*) FROM wumpuses WHERE ${where}`).pluck().get(params)!
      if (after) Object.assign(params, { time: after.time, id: after.id })
      const rows = this.statement<WumpusRow>(
        `SELECT * FROM wumpuses WHERE ${where}${after ? ' AND (created_at, id) < (@time, @id)' : ''}
         ORDER BY created_at DESC, id DESC LIMIT @limit`,
      ).all({ ...params, limit: options.limit + 1 })
      return {
        ...pageOf(rows, options.limit, { items: (page) => page.map(wumpusFromRow), key: (record) => recordKey(record, 'new') }),
        total,
      }
    })
  }

  countRemixes(of: string): Promise<number> {
    return guarded(() => (isId(of) ? this.sql.remixesOf.get(of)! : 0))
  }

  count(): Promise<number> {
    return guarded(() => this.total([]))
  }

  setHidden(id: string, hidden: HiddenInfo | null): Promise<WumpusRecord | undefined> {
    return guarded(() => {
      const row = isId(id) ? this.sql.byId.get(id) : undefined
      if (!row) return undefined
      const current = wumpusFromRow(row)
      const { hidden: _was, ...rest } = current
      const updated: WumpusRecord = hidden ? { ...rest, hidden: { at: hidden.at, by: hidden.by } } : rest
      this.replace(row.seq, current, updated)
      return updated
    })
  }

  insert(wumpus: NewWumpus): Promise<WumpusRecord> {
    return guarded(() => {
      const record = newWumpusRecord(wumpus, 'original')
      this.db.transaction(() => this.store(record))()
      this.changed(undefined, searchedAs(record))
      return record
    })
  }

  /** Inserts a new record and what is kept about it; inside the caller's transaction. */
  private store(record: WumpusRecord): void {
    const seq = Number(this.sql.insert.run(toRow(record)).lastInsertRowid)
    this.index(seq, record)
  }

  update(id: string, patch: WumpusPatch, options: { whileFiles?: WumpusRecord['files'] } = {}): Promise<WumpusRecord | undefined> {
    return guarded(() => {
      const row = isId(id) ? this.sql.byId.get(id) : undefined
      if (!row) return undefined
      const current = wumpusFromRow(row)
      if (options.whileFiles && !sameFiles(current.files, options.whileFiles)) return undefined
      const updated = patchedWumpus(current, patch, new Date())
      this.replace(row.seq, current, updated)
      return updated
    })
  }

  setCredit(
    id: string,
    change: { credit: string; lottie: FileRef; derived?: DerivedMedia; fields?: CreditEditFields },
    options: { whileFiles: WumpusRecord['files']; whileMadeAt: Date | undefined; whileCredit?: string },
  ): Promise<WumpusRecord | undefined> {
    return guarded(() => {
      const row = isId(id) ? this.sql.byId.get(id) : undefined
      if (!row) return undefined
      const current = wumpusFromRow(row)
      if (!sameFiles(current.files, options.whileFiles)) return undefined
      if (current.derived?.madeAt.getTime() !== options.whileMadeAt?.getTime()) return undefined
      if (options.whileCredit !== undefined && current.credit !== options.whileCredit) return undefined
      const updated: WumpusRecord = {
        ...patchedWumpus(current, change.fields ?? {}, new Date()),
        credit: change.credit,
        files: { ...current.files, lottie: { id: change.lottie.id, filename: change.lottie.filename } },
        ...(change.derived ? { derived: copyDerived(change.derived) } : {}),
        // The colours are the same Lottie's: they follow it rather than being read again.
        ...(current.colourSlots?.source === current.files.lottie.id
          ? { colourSlots: { ...current.colourSlots, source: change.lottie.id } }
          : {}),
        updatedAt: new Date(),
      }
      this.replace(row.seq, current, updated)
      return updated
    })
  }

  setDerived(
    id: string,
    lottieId: string,
    derived: DerivedMedia | null,
    options: { leaseOwner?: string } = {},
  ): Promise<WumpusRecord | undefined> {
    return guarded(() => {
      const row = isId(id) ? this.sql.byId.get(id) : undefined
      if (!row) return undefined
      if (options.leaseOwner !== undefined && row.render_owner !== options.leaseOwner) return undefined
      const current = wumpusFromRow(row)
      if (current.files.lottie.id !== lottieId) return undefined
      const { derived: _previous, ...rest } = current
      const updated: WumpusRecord = derived ? { ...rest, derived: copyDerived(derived) } : rest
      this.replace(row.seq, current, updated)
      return updated
    })
  }

  setColourSlots(id: string, colourSlots: ColourSlots): Promise<boolean> {
    return guarded(() => {
      if (!isId(id)) return false
      const stored = json.write(copyColourSlots(colourSlots))
      return this.sql.setColourSlots.run(stored, id, colourSlots.source).changes > 0
    })
  }

  delete(id: string): Promise<number> {
    return guarded(() => {
      const row = isId(id) ? this.sql.byId.get(id) : undefined
      if (!row) return 0
      this.db.transaction(() => {
        this.unindex(row.seq, wumpusFromRow(row))
        this.sql.delete.run(row.seq)
        this.packs.removeWumpus(id, new Date())
        this.favourites.removeWumpus(id)
      })()
      this.downloads?.delete(row.seq)
      const record = wumpusFromRow(row)
      if (listed(record)) this.changed(searchedAs(record), undefined)
      return 1
    })
  }

  addDownloads(counts: ReadonlyMap<string, number>): Promise<void> {
    return guarded(() => {
      let changed = false
      this.db.transaction(() => {
        for (const [id, count] of counts) {
          if (!(count > 0) || !isId(id)) continue
          const row = this.sql.addDownloads.get(count, id)
          if (!row) continue
          this.downloads?.set(row.seq, row.downloads)
          changed = true
        }
      })()
      if (changed) this.downloadsRevisionNumber++
    })
  }

  listTags(options: { withSensitive?: boolean } = {}): Promise<TagCount[]> {
    return guarded(() => {
      this.tagCounts ??= this.countedFacets(TAG_FACET, SENSITIVE_TAG_FACET)
      return this.tagCounts[options.withSensitive ? 'all' : 'general'].map(({ value, count }) => ({ tag: value, count }))
    })
  }

  listEmoji(options: { withSensitive?: boolean } = {}): Promise<EmojiUse[]> {
    return guarded(() => {
      this.emojiCounts ??= this.countedFacets(EMOJI_FACET, SENSITIVE_EMOJI_FACET)
      return this.emojiCounts[options.withSensitive ? 'all' : 'general'].map(({ value, count }) => ({ char: value, count }))
    })
  }

  /** One kind of facet's counts: of all animations, and less the sensitive ones' (their own short range). */
  private countedFacets(prefix: string, sensitivePrefix: string): CountedFacets {
    const all = this.facetCounts(prefix)
    const sensitive = new Map(this.facetCounts(sensitivePrefix).map(({ value, count }) => [value, count]))
    const general = all
      .map(({ value, count }) => ({ value, count: count - (sensitive.get(value) ?? 0) }))
      .filter((entry) => entry.count > 0)
      .sort(mostFirst)
    return { all, general }
  }

  /** The values of one kind of facet with how many animations have each, most first, then by value. */
  private facetCounts(prefix: string): Array<{ value: string; count: number }> {
    const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)
    return this.sql.facetCounts
      .all(prefix, end)
      .map(({ facet, count }) => ({ value: facet.slice(prefix.length), count }))
      .sort(mostFirst)
  }

  findByFile(fileId: string): Promise<string | undefined> {
    return guarded(() => (isId(fileId) ? this.sql.byFile.get(fileId)?.id : undefined))
  }

  async usesFile(fileId: string): Promise<boolean> {
    return (await this.findByFile(fileId)) !== undefined
  }

  list(options: ListWumpusesOptions): Promise<WumpusPage> {
    return guarded(() => {
      const words = queryWords(options.q)
      const order = listOrder(options.sort, words)
      const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, order)
      const facets = filterFacets(options)
      if (words.length === 0) return this.plainPage(facets, order, options.limit, after)
      return this.matchesPage(this.search.matches(words, facets), order, options.limit, after)
    })
  }

  /**
   * Newest or most downloaded first, with any filters, read from an index in the list's order:
   * - newest first: the range of the filter with the fewest members in wumpus_facets (which copies the
   *   order keys), the other filters checked row by row; without filters, wumpuses_newest;
   * - most downloaded first (counts change all the time, so only wumpuses keeps them): wumpuses_popular,
   *   walked until a page meets the filters, which reads about limit × all / members rows; unless the
   *   filters have so few members that sorting them costs less (members² < limit × all: both ways then
   *   read at most √(limit × all) rows, 1,600 at 100k animations).
   */
  private plainPage(facets: string[], order: ListOrder, limit: number, after: ListKey | undefined): WumpusPage {
    const params: Record<string, string | number> = { limit: limit + 1 }
    if (after) Object.assign(params, { rank: after.rank, time: after.time, id: after.id })
    const byMembers = [...facets].sort((a, b) => this.total([a]) - this.total([b]))
    const member = (facet: string, i: number, alias: string) => {
      params[`facet${i}`] = facet
      return `EXISTS (SELECT 1 FROM wumpus_facets g${i} WHERE g${i}.facet = @facet${i} AND g${i}.seq = ${alias}.seq)`
    }
    let sql: string
    if (order !== 'popular') {
      const [lead, ...others] = byMembers
      const alias = lead === undefined ? 'w' : 'f'
      if (lead !== undefined) params.lead = lead
      const conditions = [
        lead === undefined ? 'w.remix_of IS NULL AND w.hidden IS NULL' : 'f.facet = @lead',
        ...others.map((facet, i) => member(facet, i, alias)),
        ...(after ? [`(${alias}.created_at, ${alias}.id) < (@time, @id)`] : []),
      ]
      const from = lead === undefined ? 'wumpuses w' : 'wumpus_facets f'
      sql = `SELECT ${alias}.seq FROM ${from} WHERE ${conditions.join(' AND ')} ORDER BY ${alias}.created_at DESC, ${alias}.id DESC LIMIT @limit`
    } else {
      const members = facets.length > 0 ? this.total(facets) : Infinity
      const few = members * members < (limit + 1) * this.total([])
      const [lead, ...others] = few ? byMembers : [undefined, ...byMembers]
      if (lead !== undefined) params.lead = lead
      const conditions = [
        lead === undefined ? 'w.remix_of IS NULL AND w.hidden IS NULL' : 'f.facet = @lead',
        ...others.map((facet, i) => member(facet!, i, 'w')),
        ...(after ? ['(w.downloads, w.created_at, w.id) < (@rank, @time, @id)'] : []),
      ]
      const from = lead === undefined ? 'wumpuses w INDEXED BY wumpuses_popular' : 'wumpus_facets f JOIN wumpuses w ON w.seq = f.seq'
      sql = `SELECT w.seq FROM ${from} WHERE ${conditions.join(' AND ')} ORDER BY w.downloads DESC, w.created_at DESC, w.id DESC LIMIT @limit`
    }
    const seqs = this.statement<number>(sql).pluck().all(params)
    const page = pageOf(seqs, limit, { items: (shown) => this.records(shown), key: (record) => recordKey(record, order), order })
    return { ...page, total: this.total(facets) }
  }

  /** How many animations belong to every facet (all of them for none); kept until membership changes. */
  private total(facets: string[]): number {
    const key = [...facets].sort().join('\n')
    let total = this.totals.get(key)?.total
    if (total === undefined) {
      const [lead, ...others] = [...facets].sort((a, b) => this.total([a]) - this.total([b]))
      if (lead === undefined) total = this.sql.count.get()!.count
      else if (others.length === 0) total = this.sql.facetCount.get(lead) ?? 0
      else {
        const exists = others.map((_, i) => ` AND EXISTS (SELECT 1 FROM wumpus_facets g WHERE g.facet = @other${i} AND g.seq = f.seq)`)
        const params: Record<string, string> = { lead }
        others.forEach((facet, i) => (params[`other${i}`] = facet))
        total = this.statement<{ count: number }>(
          `SELECT count(*) AS count FROM wumpus_facets f WHERE f.facet = @lead${exists.join('')}`,
        ).get(params)!.count
      }
      this.totals.set(key, { facets: [...facets], total })
    }
    return total
  }

  /** A page of a search's matches in any order: one pass over them. */
  private matchesPage(matches: Matches, order: ListOrder, limit: number, after: ListKey | undefined): WumpusPage {
    const downloads = order === 'popular' ? this.downloadCounts() : undefined
    const ids = new Map<number, string>()
    // Ids decide only between equal ranks and times: read when needed.
    const idOf = (i: number) => {
      let id = ids.get(i)
      if (id === undefined) ids.set(i, (id = this.sql.idOf.get(matches.seqs[i]!)!))
      return id
    }
    const selector = new PageSelector<number>(limit, after, idOf)
    // Latest seqs first: mostly the newest, so in the newest and best orders few displace the page kept so far.
    for (let i = matches.seqs.length - 1; i >= 0; i--) {
      const rank = order === 'relevance' ? matches.scores[i]! : downloads ? (downloads.get(matches.seqs[i]!) ?? 0) : 0
      selector.offer(rank, matches.times[i]!, i)
    }
    const { values, nextKey } = selector.page()
    const items = this.records(values.map((i) => matches.seqs[i]!))
    return nextKey ? { items, total: selector.total, nextCursor: encodeCursor(nextKey, order) } : { items, total: selector.total }
  }

  /** Records by seq, in the order given (one deleted meanwhile is left out). */
  private records(seqs: number[]): WumpusRecord[] {
    if (seqs.length === 0) return []
    const rows = this.statement<WumpusRow>(`SELECT * FROM wumpuses WHERE seq IN (${seqs.map(() => '?').join(', ')})`).all(...seqs)
    const bySeq = new Map(rows.map((row) => [row.seq, row]))
    return seqs.flatMap((seq) => {
      const row = bySeq.get(seq)
      return row ? [wumpusFromRow(row)] : []
    })
  }

  private downloadCounts(): Map<number, number> {
    this.downloads ??= new Map(this.sql.positiveDownloads.raw().all())
    return this.downloads
  }

  /**
   * Stores a record as it is (an import of older data): inside the caller's transaction, and without
   * the files another record already claimed.
   */
  restore(record: WumpusRecord): void {
    const seq = Number(this.sql.insert.run(toRow(record)).lastInsertRowid)
    this.index(seq, record, { skipTakenFiles: true })
    if (listed(record)) this.changed(undefined, searchedAs(record))
  }

  /** Replaces a record and everything kept about it, in one transaction. */
  private replace(seq: number, current: WumpusRecord, updated: WumpusRecord): void {
    this.db.transaction(() => {
      this.unindex(seq, current)
      this.sql.update.run({ ...toRow(updated), seq })
      // Another Lottie is new render work: the failures of the previous one no longer count.
      if (updated.files.lottie.id !== current.files.lottie.id) this.sql.newRenderJob.run(seq)
      this.index(seq, updated)
    })()
    // A remix (a record is never made a remix, nor a remix an original) or a hidden one is in no list, search or count.
    if (listed(current) || listed(updated))
      this.changed(listed(current) ? searchedAs(current) : undefined, listed(updated) ? searchedAs(updated) : undefined)
  }

  /** Adds a record's words, facets and file claims; another record's claim on one of its files throws FileInUseError. */
  private index(seq: number, record: WumpusRecord, options: { skipTakenFiles?: boolean } = {}): void {
    const fileIds = [...new Set(wumpusFileIds(record))]
    const taken = fileIds.filter((fileId) => {
      const claimant = this.sql.claimant.get(fileId)
      return claimant !== undefined && claimant.seq !== seq
    })
    if (taken.length > 0 && !options.skipTakenFiles) throw new FileInUseError(taken)
    for (const fileId of fileIds) if (!taken.includes(fileId)) this.sql.claim.run(fileId, seq)
    // Lists, searches, tags and emoji never see a remix or a hidden animation.
    if (!listed(record)) return
    const time = record.createdAt.getTime()
    for (const [word, fields] of fieldMasks(record)) this.sql.insertWord.run(word, seq, fields, time)
    for (const facet of recordFacets(record)) this.sql.insertFacet.run(facet, seq, time, record._id)
  }

  private unindex(seq: number, record: WumpusRecord): void {
    this.sql.releaseClaims.run(seq)
    for (const word of fieldMasks(record).keys()) this.sql.deleteWord.run(word, seq)
    this.sql.deleteFacets.run(seq)
  }

  /**
   * An animation came (no `before`), went (no `after`) or changed: what lists show moves on (the
   * revision), and what is kept of searches, totals and counts is forgotten only where it counted this
   * animation before or after. A render result or a new name leaves the totals and counts alone; a
   * search is forgotten only when the animation matches it (before or after) and its words, time or
   * the search's filters changed for it.
   */
  private changed(before: Searched | undefined, after: Searched | undefined): void {
    this.revisionNumber++
    const facets = new Set<string>()
    for (const facet of before?.facets ?? []) if (!after?.facets.has(facet)) facets.add(facet)
    for (const facet of after?.facets ?? []) if (!before?.facets.has(facet)) facets.add(facet)
    const comes = before === undefined || after === undefined
    for (const [key, entry] of this.totals)
      if ((comes && entry.facets.length === 0) || entry.facets.some((f) => facets.has(f))) this.totals.delete(key)
    const changes = (...prefixes: string[]) => [...facets].some((facet) => prefixes.some((prefix) => facet.startsWith(prefix)))
    if (changes(TAG_FACET, SENSITIVE_TAG_FACET)) this.tagCounts = undefined
    if (changes(EMOJI_FACET, SENSITIVE_EMOJI_FACET)) this.emojiCounts = undefined
    const sameWords = !comes && before.time === after.time && sameMasks(before.words, after.words)
    this.search.forget((words, searchFacets) => {
      if (sameWords && !searchFacets.some((facet) => facets.has(facet))) return false
      return matchesSearch(before, words, searchFacets) || matchesSearch(after, words, searchFacets)
    })
  }

  /** A statement of a query put together from the options, prepared once. */
  private statement<Row>(sql: string): Statement<unknown[], Row> {
    let statement = this.statements.get(sql)
    if (!statement) {
      statement = this.db.prepare(sql)
      this.statements.set(sql, statement)
    }
    return statement as Statement<unknown[], Row>
  }
}

/** Counts of values (tags or emoji) most first, then by value: of all animations, and of those not sensitive. */
interface CountedFacets {
  all: Array<{ value: string; count: number }>
  general: Array<{ value: string; count: number }>
}

function mostFirst(a: { value: string; count: number }, b: { value: string; count: number }): number {
  return b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0)
}

/** Whether lists, searches, totals and counts see the animation: not a remix, not hidden. */
function listed(record: WumpusRecord): boolean {
  return !record.remix && !record.hidden
}

function hiddenFromJson(text: string): HiddenInfo {
  const stored = json.read<{ at: number; by: string }>(text)
  return { at: new Date(stored.at), by: stored.by }
}

/** What searches, totals and counts see of an animation. */
interface Searched {
  words: Map<string, number>
  facets: Set<string>
  time: number
}

function searchedAs(record: WumpusRecord): Searched {
  return { words: fieldMasks(record), facets: new Set(recordFacets(record)), time: record.createdAt.getTime() }
}

function sameMasks(a: Map<string, number>, b: Map<string, number>): boolean {
  if (a.size !== b.size) return false
  for (const [word, mask] of a) if (b.get(word) !== mask) return false
  return true
}

/** Whether an animation is among a search's matches (wumpus-search.ts: every query word matches one of its words, it has every facet). */
function matchesSearch(animation: Searched | undefined, words: readonly string[], facets: readonly string[]): boolean {
  if (!animation || !facets.every((facet) => animation.facets.has(facet))) return false
  return words.every((word) => {
    if (animation.words.has(word)) return true
    if (!matchesAsPrefix(word)) return false
    for (const own of animation.words.keys()) if (own.startsWith(word)) return true
    return false
  })
}

/** Each distinct word of the record's searched fields with the mask of the fields holding it. */
function fieldMasks(record: WumpusRecord): Map<string, number> {
  const fields = fieldWords(record)
  const masks = new Map<string, number>()
  for (const field of SEARCH_FIELDS) for (const word of fields[field]) masks.set(word, (masks.get(word) ?? 0) | FIELD_BIT[field])
  return masks
}
