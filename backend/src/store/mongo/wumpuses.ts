/** Animations in MongoDB: the `wumpuses` collection, with a count per tag in `tags` and per emoji in `emoji`. */
import type { ClientSession, Collection, Db, Filter, MongoClient } from 'mongodb'
import { listOrder, queryWords, type ListKey, type ListOrder } from '../../../../contract/search'
import { MEDIA_FORMATS } from '../../../../contract/limits'
import type { Platform } from '../../../../contract/stickers'
import { filterFacets, mongoFilter, readyPlatforms } from '../facets'
import { isId } from '../ids'
import { decodeCursor, pageOf, recordKey } from '../list-order'
import { afterKey, MOST_DOWNLOADED_FIRST, NEWEST_FIRST, ORIGINALS, RECORD_PROJECTION } from './paging'
import {
  DuplicateKeyError,
  FileInUseError,
  type ColourSlots,
  type CreditEditFields,
  type DerivedMedia,
  type FileRef,
  type CountOptions,
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
  WUMPUS_FILE_ID_PATHS,
  assertRemixPatch,
  copyColourSlots,
  copyDerived,
  derivedFileIds,
  renderedVersion,
  sameFiles,
  newWumpusRecord,
  patchedWumpus,
  toWumpusRecord,
  wumpusFileIds,
  wumpusPatchFields,
} from '../records'
import { correctCounts, type CountDocument, type CountMove } from './counts'
import { guard } from './errors'
import type { MongoFavourites } from './favourites'
import type { MongoPacks } from './packs'
import { searchFields, type SearchFields } from './search'
import { KeptValues, WumpusSearch } from './wumpus-search'

export { MOST_DOWNLOADED_FIRST, NEWEST_FIRST, ORIGINALS, RECORD_PROJECTION } from './paging'

/**
 * Stored animations also keep their search prefixes (absent on documents not yet indexed), `fileIds`
 * repeats the record's file ids for the unique index that lets a file belong to one record only, and
 * `fits` lists the platforms with a ready export (facets.ts readyPlatforms) for the fits filter. The
 * derived media keep their files' ids in one array, indexed, so findByFile finds them.
 * `renderedVersion` (records.ts) and `render` are the render job (mongo/render-jobs.ts).
 * A remix also keeps `remixOf` (its original), `remixOwner` (its u_email) and `remixSlot` (which of its
 * owner's `max` places it takes: a unique index makes concurrent inserts take different ones). It has no
 * search prefixes, no tag or emoji counts, and every list and count asks for `remixOf: null`.
 * A hidden original (`hidden`, port HiddenInfo) has `remixOf: HIDDEN_ORIGINAL` while hidden: out of the
 * `remixOf: null` range of every list index and count, like a remix, and its tags and emoji uncounted.
 */
export type WumpusDocument = Omit<WumpusRecord, 'derived'> &
  Partial<SearchFields> & {
    derived?: DerivedMedia & { fileIds?: string[] }
    fileIds?: string[]
    fits?: Platform[]
    renderedVersion?: number
    render?: RenderState
    remixOf?: string | null
    remixOwner?: string
    remixSlot?: number
  }

/** A render job's lease and its failures at one rules version (absent on animations never claimed). */
export interface RenderState {
  owner?: string
  until?: Date
  failures?: number
  failedVersion?: number
  retryAt?: Date
}

/** Another Lottie is new render work: the failures of the previous one no longer count. */
const NEW_RENDER_JOB = { 'render.failures': '', 'render.failedVersion': '', 'render.retryAt': '' } as const

/** `remixOf` of a hidden original: never an id (ids.ts isId), so no original's remixes either. */
export const HIDDEN_ORIGINAL = 'hidden'

/** The documents in the remix indexes (a partial index takes `$exists: true`, not a missing field). */
export const REMIXES_ONLY = { remixOwner: { $exists: true } }
const TEXT_FIELDS = ['name', 'description', 'tags', 'emoji', 'keywords'] as const
/** How long a kept search may miss other instances' writes (as the HTTP layer's page caches). */
export const SEARCH_MAX_AGE_MS = 2000

/** A record's file ids without repeats (a multikey index counts a value once per document anyway). */
export function uniqueFileIds(files: WumpusRecord['files']): string[] {
  return [...new Set(wumpusFileIds({ files }))]
}

/** A record as stored: with its search prefixes (a remix's remix fields instead), its files' claim and its ready platforms. */
export function toWumpusDocument(record: WumpusRecord, remixSlot?: number): WumpusDocument {
  const { derived, ...rest } = record
  return {
    ...rest,
    ...(derived ? { derived: { ...copyDerived(derived), fileIds: derivedFileIds(derived) } } : {}),
    ...(record.remix ? { remixOf: record.remix.of, remixOwner: record.u_email, remixSlot } : searchFields(record)),
    ...(record.hidden && !record.remix ? { remixOf: HIDDEN_ORIGINAL } : {}),
    fileIds: uniqueFileIds(record.files),
    fits: readyPlatforms(record),
    renderedVersion: renderedVersion(record),
  }
}

/** Runs a write that claims files; the unique index on fileIds refusing it means another record has one. */
async function claimingFiles<T>(files: WumpusRecord['files'], write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if (error instanceof DuplicateKeyError && /fileIds/.test(error.message)) throw new FileInUseError(uniqueFileIds(files))
    throw error
  }
}

export class MongoWumpuses implements WumpusRepository {
  private revisionNumber = 0
  private downloadsRevisionNumber = 0
  private readonly wumpuses: Collection<WumpusDocument>
  private readonly tagCounts: Collection<CountDocument>
  private readonly emojiCounts: Collection<CountDocument>
  private readonly search: WumpusSearch
  /** The plain lists' totals by filter, kept as a search's are (so a list's pages count it once). */
  private readonly listTotals: KeptValues<number>

  constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    private readonly packs: MongoPacks,
    private readonly favourites: MongoFavourites,
    options: { searchMaxAgeMs?: number } = {},
  ) {
    this.wumpuses = db.collection<WumpusDocument>('wumpuses')
    this.tagCounts = db.collection<CountDocument>('tags')
    this.emojiCounts = db.collection<CountDocument>('emoji')
    this.search = new WumpusSearch(this.wumpuses, options.searchMaxAgeMs ?? SEARCH_MAX_AGE_MS)
    this.listTotals = new KeptValues(options.searchMaxAgeMs ?? SEARCH_MAX_AGE_MS)
  }

  revision(): number {
    return this.revisionNumber
  }

  downloadsRevision(): number {
    return this.downloadsRevisionNumber
  }

  async list(options: ListWumpusesOptions): Promise<WumpusPage> {
    const words = queryWords(options.q)
    const order = listOrder(options.sort, words)
    const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, order)
    const filter: Filter<WumpusDocument> = { ...mongoFilter(options), ...ORIGINALS }
    return guard(async () => {
      if (words.length === 0) return this.plainPage(order, filter, filterFacets(options).sort().join(' '), options.limit, after)
      const { docs, total } = await this.search.page(words, options, order, options.limit, after)
      const scores = new Map(docs.map((doc) => [doc._id, doc.score]))
      const page = pageOf(docs, options.limit, {
        items: (rows) => rows.map(toWumpusRecord),
        key: (record) => recordKey(record, order, scores.get(record._id)),
        order,
      })
      return { ...page, total }
    })
  }

  /**
   * Newest or most downloaded first, straight from an index: the page after the cursor, and the count of
   * the filter's animations, kept (by `filterKey`) until this instance changes what lists see or for the
   * search cache's age: a count reads every matching index entry, a page only its own.
   */
  private async plainPage(
    order: ListOrder,
    filter: Filter<WumpusDocument>,
    filterKey: string,
    limit: number,
    after: ListKey | undefined,
  ): Promise<WumpusPage> {
    const pageFilter: Filter<WumpusDocument> = after ? { ...filter, $or: afterKey(after, order) } : filter
    const [docs, total] = await Promise.all([
      this.wumpuses
        .find(pageFilter, { projection: RECORD_PROJECTION })
        .sort(order === 'popular' ? MOST_DOWNLOADED_FIRST : NEWEST_FIRST)
        .limit(limit + 1)
        .toArray(),
      this.listTotals.getOrCompute(filterKey, () => this.wumpuses.countDocuments(filter)),
    ])
    return {
      ...pageOf(docs, limit, { items: (page) => page.map(toWumpusRecord), key: (record) => recordKey(record, order), order }),
      total,
    }
  }

  async get(id: string): Promise<WumpusRecord | undefined> {
    if (!isId(id)) return undefined
    const doc = await guard(() => this.wumpuses.findOne({ _id: id }, { projection: RECORD_PROJECTION }))
    return doc ? toWumpusRecord(doc) : undefined
  }

  async insert(wumpus: NewWumpus): Promise<WumpusRecord> {
    const record = newWumpusRecord(wumpus, 'original')
    // The record and its tag and emoji counts together.
    await claimingFiles(record.files, () =>
      this.inTransaction(async (session) => {
        await guard(() => this.wumpuses.insertOne(toWumpusDocument(record), { session }))
        await this.moveCounts(undefined, record, session)
      }),
    )
    this.changed()
    return record
  }

  /**
   * Stores whole records as they are (seeding a benchmark, importing), in one batch, with everything kept
   * beside them. A file another record already has is refused (DuplicateKeyError).
   */
  async restore(records: readonly WumpusRecord[]): Promise<void> {
    if (records.length === 0) return
    if (records.some((record) => record.remix)) throw new Error('Remixes are not restored')
    await guard(() => this.wumpuses.insertMany(records.map(toWumpusDocument)))
    this.changed()
    const counted = records.filter((record) => !record.hidden)
    await addCounts(this.tagCounts, tally(counted.map((record) => [record.tags, record.sensitive])))
    await addCounts(this.emojiCounts, tally(counted.map((record) => [emojiChars(record), record.sensitive])))
  }

  async update(id: string, patch: WumpusPatch, options: { whileFiles?: WumpusRecord['files'] } = {}): Promise<WumpusRecord | undefined> {
    if (!isId(id)) return undefined
    const { whileFiles } = options
    const sameFilesFilter = whileFiles
      ? Object.fromEntries(MEDIA_FORMATS.map((format) => [`files.${format}.id`, whileFiles[format].id]))
      : {}
    const fields = wumpusPatchFields(patch)
    if (fields.remix) {
      const current = await guard(() => this.wumpuses.findOne({ _id: id }, { projection: { remix: 1 } }))
      if (!current) return undefined
      assertRemixPatch(current, fields)
    }
    const withFiles = fields.files ? await this.withFiles(id, fields.files) : undefined
    const fileIds = withFiles?.set ?? {}
    const unset = withFiles?.newLottie ? { $unset: NEW_RENDER_JOB } : {}
    const claiming = <T>(write: () => Promise<T>) => (fields.files ? claimingFiles(fields.files, write) : write())
    // The sensitive flag moves the counts without the sensitive animations: written as the text is.
    if (!TEXT_FIELDS.some((field) => field in fields) && !('sensitive' in fields)) {
      const set = { ...fields, ...fileIds, updatedAt: new Date() }
      const doc = await claiming(() =>
        guard(() =>
          this.wumpuses.findOneAndUpdate(
            { _id: id, ...sameFilesFilter, ...(fields.remix ? { remixOf: fields.remix.of } : {}) },
            { $set: set, ...unset },
            { returnDocument: 'after', projection: RECORD_PROJECTION },
          ),
        ),
      )
      if (doc) this.changedUnlessRemix(doc)
      return doc ? toWumpusRecord(doc) : undefined
    }
    // The search prefixes and tag counts follow the text: written only if the text read is still the stored one.
    for (let attempt = 0; attempt < 10; attempt++) {
      const current = await guard(() => this.wumpuses.findOne({ _id: id }, { projection: RECORD_PROJECTION }))
      if (!current) return undefined
      const before = toWumpusRecord(current)
      if (whileFiles && !sameFiles(before.files, whileFiles)) return undefined
      const next = patchedWumpus(before, fields, new Date())
      const unchanged: Filter<WumpusDocument> = {
        _id: id,
        ...sameText(current),
        ...sameFilesFilter,
        ...(fields.remix ? { remixOf: fields.remix.of } : {}),
      }
      const set = { ...fields, ...fileIds, updatedAt: next.updatedAt, ...(next.remix ? {} : searchFields(next)) }
      // The text and its tag and emoji counts together.
      const doc = await claiming(() =>
        this.inTransaction(async (session) => {
          const written = await guard(() =>
            this.wumpuses.findOneAndUpdate(
              unchanged,
              { $set: set, ...unset },
              { returnDocument: 'after', projection: RECORD_PROJECTION, session },
            ),
          )
          if (written && !written.remixOf) {
            const updated = toWumpusRecord(written)
            await this.moveCounts(before, updated, session)
          }
          return written
        }),
      )
      if (!doc) continue
      this.changedUnlessRemix(doc)
      return toWumpusRecord(doc)
    }
    throw new Error(`Animation ${id} kept changing while being updated`)
  }

  async setCredit(
    id: string,
    change: { credit: string; lottie: FileRef; derived?: DerivedMedia; fields?: CreditEditFields },
    options: { whileFiles: WumpusRecord['files']; whileMadeAt: Date | undefined; whileCredit?: string },
  ): Promise<WumpusRecord | undefined> {
    if (!isId(id)) return undefined
    const { whileFiles, whileMadeAt, whileCredit } = options
    const fields = wumpusPatchFields(change.fields ?? {})
    // The text moves the search prefixes and the tag and emoji counts: written as update writes it.
    const text = TEXT_FIELDS.some((field) => field in fields) || 'sensitive' in fields
    const files = { ...whileFiles, lottie: { id: change.lottie.id, filename: change.lottie.filename } }
    const guarded: Filter<WumpusDocument> = {
      _id: id,
      ...Object.fromEntries(MEDIA_FORMATS.map((format) => [`files.${format}.id`, whileFiles[format].id])),
      ...(whileMadeAt ? { 'derived.madeAt': whileMadeAt } : { derived: { $exists: false } }),
      // Stored before credits existed, a record has none: the empty credit it reads as.
      ...(whileCredit === undefined
        ? {}
        : whileCredit === ''
          ? { $or: [{ credit: '' }, { credit: { $exists: false } }] }
          : { credit: whileCredit }),
    }
    for (let attempt = 0; attempt < 10; attempt++) {
      const current = await guard(() => this.wumpuses.findOne({ _id: id }, { projection: RECORD_PROJECTION }))
      if (!current) return undefined
      const before = toWumpusRecord(current)
      if (!sameFiles(before.files, whileFiles) || before.derived?.madeAt.getTime() !== whileMadeAt?.getTime()) return undefined
      if (whileCredit !== undefined && before.credit !== whileCredit) return undefined
      const derived = change.derived ?? current.derived
      const made = { files, derived }
      const next = patchedWumpus(before, fields, new Date())
      // One document, one write: the credit, the Lottie, the derived media and the other fields change together or not at all.
      const set = {
        ...fields,
        credit: change.credit,
        files,
        fileIds: uniqueFileIds(files),
        ...(change.derived ? { derived: { ...copyDerived(change.derived), fileIds: derivedFileIds(change.derived) } } : {}),
        fits: readyPlatforms(made),
        renderedVersion: renderedVersion(made),
        // The colours are the same Lottie's: they follow it rather than being read again.
        ...(current.colourSlots?.source === whileFiles.lottie.id
          ? { colourSlots: { ...copyColourSlots(current.colourSlots), source: change.lottie.id } }
          : {}),
        updatedAt: next.updatedAt,
        ...(text && !next.remix ? searchFields(next) : {}),
      }
      const unchanged: Filter<WumpusDocument> = text ? { ...guarded, ...sameText(current) } : guarded
      const write = (session?: ClientSession) =>
        guard(() =>
          this.wumpuses.findOneAndUpdate(
            unchanged,
            { $set: set, $unset: NEW_RENDER_JOB },
            { returnDocument: 'after', projection: RECORD_PROJECTION, session },
          ),
        )
      const doc = await claimingFiles(files, () =>
        text
          ? this.inTransaction(async (session) => {
              const written = await write(session)
              if (written && !written.remixOf) await this.moveCounts(before, toWumpusRecord(written), session)
              return written
            })
          : write(),
      )
      // Not written: the guard no longer holds (read again above), or the text changed meanwhile (tried again).
      if (!doc) continue
      this.changedUnlessRemix(doc)
      return toWumpusRecord(doc)
    }
    throw new Error(`Animation ${id} kept changing while its credit was being set`)
  }

  async setDerived(
    id: string,
    lottieId: string,
    derived: DerivedMedia | null,
    options: { leaseOwner?: string } = {},
  ): Promise<WumpusRecord | undefined> {
    if (!isId(id)) return undefined
    // The derived files' ids also go into one array, indexed, so findByFile finds them.
    const made = { files: { lottie: { id: lottieId } }, derived: derived ?? undefined }
    const kept = { fits: readyPlatforms(made), renderedVersion: renderedVersion(made) }
    const update = derived
      ? { $set: { derived: { ...copyDerived(derived), fileIds: derivedFileIds(derived) }, ...kept } }
      : { $unset: { derived: '' as const }, $set: kept }
    const filter = {
      _id: id,
      'files.lottie.id': lottieId,
      ...(options.leaseOwner === undefined ? {} : { 'render.owner': options.leaseOwner }),
    }
    const doc = await guard(() =>
      this.wumpuses.findOneAndUpdate(filter, update, { returnDocument: 'after', projection: RECORD_PROJECTION }),
    )
    if (doc) this.changedUnlessRemix(doc)
    return doc ? toWumpusRecord(doc) : undefined
  }

  async setColourSlots(id: string, colourSlots: ColourSlots): Promise<boolean> {
    if (!isId(id)) return false
    const { matchedCount } = await guard(() =>
      this.wumpuses.updateOne({ _id: id, 'files.lottie.id': colourSlots.source }, { $set: { colourSlots: copyColourSlots(colourSlots) } }),
    )
    return matchedCount > 0
  }

  /**
   * What is kept beside the record's files: their claim, the platforms it would fit and the version of
   * its derived media (its exports stop fitting, its media stop counting, once its Lottie is another).
   */
  private async withFiles(
    id: string,
    files: WumpusRecord['files'],
  ): Promise<{ set: Pick<WumpusDocument, 'fileIds' | 'fits' | 'renderedVersion'>; newLottie: boolean }> {
    const doc = await guard(() => this.wumpuses.findOne({ _id: id }, { projection: { derived: 1, 'files.lottie.id': 1 } }))
    const next = { files, derived: doc?.derived }
    return {
      set: { fileIds: uniqueFileIds(files), fits: readyPlatforms(next), renderedVersion: renderedVersion(next) },
      newLottie: doc?.files.lottie.id !== files.lottie.id,
    }
  }

  /**
   * The record, its tag and emoji counts, its places in packs (and covers) and its favourites go in one
   * transaction: a crash or a lost connection between them leaves all or none.
   */
  async delete(id: string): Promise<number> {
    if (!isId(id)) return 0
    const doc = await this.inTransaction(async (session) => {
      const deleted = await this.wumpuses.findOneAndDelete(
        { _id: id },
        { projection: { tags: 1, emoji: 1, remixOf: 1, sensitive: 1 }, session },
      )
      if (!deleted) return null
      const counted = { tags: deleted.tags ?? [], emoji: deleted.emoji ?? [], sensitive: deleted.sensitive === true }
      if (!deleted.remixOf) await this.moveCounts(counted, undefined, session)
      await this.packs.removeWumpus(id, session)
      await this.favourites.removeWumpus(id, session)
      return deleted
    })
    if (!doc) return 0
    this.changedUnlessRemix(doc)
    return 1
  }

  /**
   * Takes one of the owner's free places (remixSlot) below max: the unique index on (remixOwner,
   * remixSlot) lets only one of concurrent inserts have a place, the others read the places again.
   */
  async insertRemix(wumpus: NewWumpus & { remix: RemixInfo }, options: { max: number }): Promise<WumpusRecord | 'full'> {
    const record = newWumpusRecord(wumpus, 'remix')
    // Each lost race means another insert took a place: at most max of them before it is full.
    for (let attempt = 0; attempt <= options.max; attempt++) {
      const taken = await guard(() =>
        this.wumpuses.find({ remixOwner: record.u_email }, { projection: { _id: 0, remixSlot: 1 } }).toArray(),
      )
      if (taken.length >= options.max) return 'full'
      const used = new Set(taken.map((doc) => doc.remixSlot))
      const free = Array.from({ length: options.max }, (_, slot) => slot).filter((slot) => !used.has(slot))
      // A random one, so that racing inserts seldom pick the same.
      const slot = free[Math.floor(Math.random() * free.length)]
      if (slot === undefined) return 'full'
      try {
        await claimingFiles(record.files, () => guard(() => this.wumpuses.insertOne(toWumpusDocument(record, slot))))
      } catch (error) {
        if (error instanceof DuplicateKeyError && /remixSlot/.test(error.message)) continue
        throw error
      }
      // A remix is in no list, search or count: public caches are left alone.
      return record
    }
    return 'full'
  }

  async listRemixes(options: ListRemixesOptions): Promise<WumpusPage> {
    if (options.owner === undefined && options.of === undefined) throw new Error('Remixes are listed by owner or by original')
    const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, 'new')
    const filter: Filter<WumpusDocument> = {
      ...(options.owner === undefined ? {} : { remixOwner: options.owner }),
      ...(options.of === undefined ? {} : { remixOf: options.of }),
      ...(options.withoutHidden ? { hidden: { $exists: false } } : {}),
    }
    const [docs, total] = await guard(() =>
      Promise.all([
        this.wumpuses
          .find(after ? { ...filter, $or: afterKey(after, 'new') } : filter, { projection: RECORD_PROJECTION })
          .sort(NEWEST_FIRST)
          .limit(options.limit + 1)
          .toArray(),
        this.wumpuses.countDocuments(filter),
      ]),
    )
    return {
      ...pageOf(docs, options.limit, { items: (page) => page.map(toWumpusRecord), key: (record) => recordKey(record, 'new') }),
      total,
    }
  }

  countRemixes(of: string): Promise<number> {
    return isId(of) ? guard(() => this.wumpuses.countDocuments({ remixOf: of })) : Promise.resolve(0)
  }

  count(): Promise<number> {
    return guard(() => this.wumpuses.countDocuments(ORIGINALS))
  }

  /** A remix's `hidden` alone; an original's with its place in lists and its tag and emoji counts, in one transaction. */
  async setHidden(id: string, hidden: HiddenInfo | null): Promise<WumpusRecord | undefined> {
    if (!isId(id)) return undefined
    const current = await guard(() => this.wumpuses.findOne({ _id: id }, { projection: RECORD_PROJECTION }))
    if (!current) return undefined
    const set = hidden ? { hidden: { at: hidden.at, by: hidden.by } } : {}
    const unset = hidden ? {} : { $unset: { hidden: '' as const } }
    if (current.remix) {
      const doc = await guard(() =>
        this.wumpuses.findOneAndUpdate({ _id: id }, { $set: set, ...unset }, { returnDocument: 'after', projection: RECORD_PROJECTION }),
      )
      return doc ? toWumpusRecord(doc) : undefined
    }
    const listedBefore = !current.remixOf
    const doc = await this.inTransaction(async (session) => {
      const written = await this.wumpuses.findOneAndUpdate(
        { _id: id, remixOf: current.remixOf ?? null },
        { $set: { ...set, remixOf: hidden ? HIDDEN_ORIGINAL : null }, ...unset },
        { returnDocument: 'after', projection: RECORD_PROJECTION, session },
      )
      if (written && listedBefore === Boolean(hidden)) {
        const record = toWumpusRecord(written)
        await (hidden ? this.moveCounts(record, undefined, session) : this.moveCounts(undefined, record, session))
      }
      return written
    })
    if (!doc) throw new Error(`Animation ${id} changed while being hidden or shown`)
    if (listedBefore === Boolean(hidden)) this.changed()
    return toWumpusRecord(doc)
  }

  /** Moves the downloads revision only: kept searches hold no download counts (the popular order reads them). */
  async addDownloads(counts: ReadonlyMap<string, number>): Promise<void> {
    const updates = [...counts].filter(([id, count]) => isId(id) && count > 0)
    if (updates.length === 0) return
    const { modifiedCount } = await guard(() =>
      this.wumpuses.bulkWrite(
        updates.map(([id, count]) => ({ updateOne: { filter: { _id: id }, update: { $inc: { downloads: count } } } })),
        { ordered: false },
      ),
    )
    if (modifiedCount > 0) this.downloadsRevisionNumber++
  }

  async listTags(options: CountOptions = {}): Promise<TagCount[]> {
    return (await listCounts(this.tagCounts, options)).map(({ value, count }) => ({ tag: value, count }))
  }

  async listEmoji(options: CountOptions = {}): Promise<EmojiUse[]> {
    return (await listCounts(this.emojiCounts, options)).map(({ value, count }) => ({ char: value, count }))
  }

  /** Counts tags and emoji again in the database and corrects those that drifted (counts.ts). */
  correctCounts(): Promise<number> {
    return guard(() => correctCounts(this.client, this.db))
  }

  async findByFile(fileId: string): Promise<string | undefined> {
    if (!isId(fileId)) return undefined
    const filter = { $or: WUMPUS_FILE_ID_PATHS.map((path) => ({ [path]: fileId })) }
    const doc = await guard(() => this.wumpuses.findOne(filter, { projection: { _id: 1 } }))
    return doc?._id
  }

  async usesFile(fileId: string): Promise<boolean> {
    return (await this.findByFile(fileId)) !== undefined
  }

  /**
   * Moves the tag and emoji counts (and their counts among sensitive animations) from a record's version
   * `before` to `after`: a new record has no before, a removed one no after. Counts that reach 0 are removed.
   */
  private async moveCounts(before: Counted | undefined, after: Counted | undefined, session?: ClientSession) {
    await addCounts(this.tagCounts, countMoves(before && [before.tags, before.sensitive], after && [after.tags, after.sensitive]), session)
    await addCounts(
      this.emojiCounts,
      countMoves(before && [emojiChars(before), before.sensitive], after && [emojiChars(after), after.sensitive]),
      session,
    )
  }

  /** Runs the writes in one transaction (retried by the driver on a transient conflict). */
  private inTransaction<T>(write: (session: ClientSession) => Promise<T>): Promise<T> {
    return guard(() => this.client.withSession((session) => session.withTransaction(() => write(session))))
  }

  /** What lists and searches see has changed. */
  /** A remix's writes change no list, search or count (remixOf is never set or unset by an update). */
  private changedUnlessRemix(doc: Pick<WumpusDocument, 'remixOf'>): void {
    if (!doc.remixOf) this.changed()
  }

  private changed(): void {
    this.revisionNumber++
    this.search.changed()
    this.listTotals.clear()
  }
}

/** A filter that holds while the animation's text (and so its search prefixes and tag counts) is the one read. */
function sameText(current: WumpusDocument): Filter<WumpusDocument> {
  return {
    name: current.name,
    description: current.description,
    tags: current.tags ?? { $exists: false },
    emoji: current.emoji ?? { $exists: false },
    keywords: current.keywords ?? { $exists: false },
    sensitive: current.sensitive ?? { $exists: false },
  }
}

function emojiChars(record: Pick<WumpusRecord, 'emoji'>): string[] {
  return [...new Set(record.emoji.map((emoji) => emoji.char))]
}

/** What a record's version adds to the counts: its values (tags or emoji characters), and whether it is sensitive. */
type CountedValues = [values: readonly string[], sensitive: boolean | undefined]

/** A record's version as the counts see it. */
type Counted = Pick<WumpusRecord, 'tags' | 'emoji' | 'sensitive'>

/** How much each count (and its count among sensitive animations) moves from one version's values to another's. */
function countMoves(before: CountedValues | undefined, after: CountedValues | undefined): Map<string, CountMove> {
  const moves = new Map<string, CountMove>()
  const move = ([values, sensitive]: CountedValues, by: 1 | -1) => {
    for (const value of values) {
      const current = moves.get(value) ?? { count: 0, sensitive: 0 }
      moves.set(value, { count: current.count + by, sensitive: current.sensitive + (sensitive ? by : 0) })
    }
  }
  if (before) move(before, -1)
  if (after) move(after, 1)
  for (const [value, { count, sensitive }] of moves) if (count === 0 && sensitive === 0) moves.delete(value)
  return moves
}

/** How many of the records hold each value, and how many of the sensitive ones. */
function tally(records: readonly CountedValues[]): Map<string, CountMove> {
  const counts = new Map<string, CountMove>()
  for (const record of records) {
    for (const [value, move] of countMoves(undefined, record)) {
      const current = counts.get(value) ?? { count: 0, sensitive: 0 }
      counts.set(value, { count: current.count + move.count, sensitive: current.sensitive + move.sensitive })
    }
  }
  return counts
}

/** Adds to the counts (upserting new values); counts that reach 0 are removed. */
async function addCounts(
  collection: Collection<CountDocument>,
  moves: ReadonlyMap<string, CountMove>,
  session?: ClientSession,
): Promise<void> {
  if (moves.size === 0) return
  await guard(async () => {
    await collection.bulkWrite(
      [...moves].map(([value, { count, sensitive }]) => ({
        updateOne: { filter: { _id: value }, update: { $inc: sensitive === 0 ? { count } : { count, sensitive } }, upsert: true },
      })),
      { ordered: false, session },
    )
    if ([...moves.values()].some((move) => move.count < 0))
      await collection.deleteMany({ _id: { $in: [...moves.keys()] }, count: { $lte: 0 } }, { session })
  })
}

/**
 * The values with a count, most first, then by value; without withSensitive, counted without the
 * sensitive animations (a value only they carry is left out).
 */
async function listCounts(collection: Collection<CountDocument>, options: CountOptions): Promise<Array<{ value: string; count: number }>> {
  const docs = await guard(() =>
    collection
      .find({ count: { $gt: 0 } })
      .sort({ count: -1, _id: 1 })
      .toArray(),
  )
  const counts = docs.map((doc) => ({ value: doc._id, count: options.withSensitive ? doc.count : doc.count - (doc.sensitive ?? 0) }))
  if (options.withSensitive) return counts
  return counts.filter((entry) => entry.count > 0).sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
}
