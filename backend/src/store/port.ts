/**
 * The storage port. Handlers talk to this, never to a driver.
 * Two adapters implement it: sqlite (the embedded default, sqlite/) and mongo (official driver + GridFS),
 * one small repository per aggregate each, checked by one behaviour suite (backend/test/store-behaviour/).
 * Ids are 24 lowercase hex characters on both; dates are JS Dates.
 */
import type { DiscordUploadRepository } from './discord-uploads-port'
import type { Readable } from 'node:stream'
import type { AuditActionName, AuditTargetType } from '../../../contract/audit'
import type { Licence } from '../../../contract/licence'
import type { SubmissionState } from '../../../contract/submission-states'
import type { ReportDecision, ReportReason, ReportState, ReportTargetKind } from '../../../contract/reports'
import type { NotificationKind, NotificationSubjectKind } from '../../../contract/notifications'
import type { MediaFormat } from '../../../contract/limits'
import type { MediaFacts } from '../../../contract/media-facts'
import type { PackVisibility } from '../../../contract/pack'
import type { PackEditField } from '../../../contract/pack-edits'
import type { ListSort } from '../../../contract/search'
import type { Platform } from '../../../contract/stickers'
import type { StickerEmoji, TagCount } from '../../../contract/wumpus'
import type { Recipe } from '../../../contract/remix/recipe'
import type { ColourSlotSummary } from '../../../contract/remix/colours'
import type { RemixVisibility } from '../../../contract/remix/remix-api'

export type { StickerEmoji, TagCount }

/** An emoji in use (its fully qualified character) and how many animations carry it. */
export interface EmojiUse {
  char: string
  count: number
}

/**
 * What a file is for: one format of an animation, a profile photo/cover, or a file the server made
 * from an animation's Lottie (card previews, platform exports).
 */
/** 'submission': the Lottie of a submission (services/submissions.ts), kept until it is published or withdrawn. */
export type FilePurpose = 'animation' | 'image' | 'derived' | 'submission'

export interface StoredFile {
  id: string
  /** Exact Content-Type decided by inspecting the bytes. */
  contentType: string
  /** Original file name, kept for Content-Disposition. */
  filename: string
  size: number
  /** Hex sha256 of the bytes; serves as the ETag. */
  sha256: string
  createdAt: Date
  /** Email of the user who uploaded it, when known. */
  owner?: string
  purpose?: FilePurpose
}

export interface NewFile {
  bytes: Uint8Array
  contentType: string
  filename: string
  owner?: string
  purpose?: FilePurpose
}

/** A stored file as a record refers to it: id plus the original name (for URLs and downloads). */
export interface FileRef {
  id: string
  filename: string
}

/** A file made from the Lottie, with what the server read in it. */
export interface DerivedFile extends FileRef, MediaFacts {}

/** One platform's export: the file when one fits the platform, and notes (what it gave up, or why there is none). */
export interface StickerExportRecord {
  platform: Platform
  file?: DerivedFile
  notes: string[]
}

/** Everything made from an animation's Lottie after publishing. */
export interface DerivedMedia {
  /** Id of the Lottie file they were made from: once the animation's Lottie changes they are stale. */
  source: string
  /** The rules' version they were made with (services/derived-media.ts); older ones are made again. */
  version: number
  madeAt: Date
  /** Card previews: animated WebP at 1x and 2x of the card image, and a still first frame. */
  previews?: { small: DerivedFile; large: DerivedFile; still: DerivedFile }
  exports: StickerExportRecord[]
  /** Why nothing could be made, when the Lottie could not be rendered. */
  error?: string
}

/** The colour slots of an animation's Lottie (contract/remix/colours.ts), read in the render worker after it was stored. */
export interface ColourSlots {
  /** Id of the Lottie file they were read from: once the animation's Lottie changes they are stale. */
  source: string
  /** The rules' version they were read by (COLOUR_SLOTS_VERSION); older ones are read again. */
  version: number
  /** Most covering first, as GET /api/wumpus/{id}/colours shows them. */
  slots: ColourSlotSummary[]
}

export interface WumpusRecord {
  _id: string
  name: string
  description: string
  /** One stored file per format. */
  files: Record<MediaFormat, FileRef>
  u_email: string
  u_name: string
  /** Normalized tags (contract/search.ts); [] for records stored before tags existed. */
  tags: string[]
  /** Emoji with their names, in order (contract/wumpus.ts); [] for records stored before emoji existed. */
  emoji: StickerEmoji[]
  /** Search keywords, lower case; [] for records stored before keywords existed. */
  keywords: string[]
  /** Counted downloads; 0 for records stored before counting existed. */
  downloads: number
  /** The licence it travels under; DEFAULT_LICENCE for records stored before licences existed. */
  licence: Licence
  /** Who made it, as credited; '' (the gallery itself) for records stored before credits existed. */
  credit: string
  /**
   * Set by its maker (submission) or an admin: left out of lists and searches unless they ask for them
   * (ListWumpusesOptions.withSensitive); false for records stored before the flag existed.
   */
  sensitive: boolean
  /** Absent until the server has made them. */
  derived?: DerivedMedia
  /** Absent until the server has read them (services/colour-slots.ts); never on a remix. */
  colourSlots?: ColourSlots
  /** Remixes only: a person's own version of another animation (contract/remix/remix-api.ts). */
  remix?: RemixInfo
  /**
   * Set while an admin has it hidden (a report's `hide` decision, services/reports.ts): it is in no list,
   * count, search, tag or emoji count (like a remix), and only admins see it (domain/visibility.ts canSee).
   */
  hidden?: HiddenInfo
  createdAt: Date
  updatedAt: Date
}

/** Who hid an animation and when. */
export interface HiddenInfo {
  at: Date
  by: string
}

/**
 * What makes a record a remix. Its files (GIF, APNG, Lottie) were made by applying `recipe` to the
 * Lottie `source` of the animation `of`; its owner is its u_email. Remixes are never in list, count,
 * search, listTags or listEmoji; get, update, delete, setDerived, render jobs, files, favourites and
 * packs treat them like any record.
 */
export interface RemixInfo {
  of: string
  recipe: Recipe
  /** The original's Lottie file when the remix's files were made: another one means they are to be made again. */
  source: string
  visibility: RemixVisibility
  /**
   * Which generation of its file keys (http/file-keys.ts) its URLs carry: moved on by each change of sharing
   * and each renewal by its owner, so the keyed URLs shown before stop opening its files. Absent: 0.
   */
  keyGeneration?: number
}

export type NewWumpus = Omit<
  WumpusRecord,
  | '_id'
  | 'createdAt'
  | 'updatedAt'
  | 'tags'
  | 'emoji'
  | 'keywords'
  | 'downloads'
  | 'derived'
  | 'colourSlots'
  | 'licence'
  | 'credit'
  | 'hidden'
  | 'sensitive'
> & {
  /** Optional, for seeding and tests; defaults to now. */
  createdAt?: Date
  /** Each defaults to none. */
  tags?: string[]
  emoji?: StickerEmoji[]
  keywords?: string[]
  /** DEFAULT_LICENCE and '' unless given. */
  licence?: Licence
  credit?: string
  /** Default false. */
  sensitive?: boolean
}

/** `remix` only on a remix (a record is never made a remix, nor a remix an original). */
export type WumpusPatch = Partial<
  Pick<
    WumpusRecord,
    'name' | 'description' | 'files' | 'u_name' | 'tags' | 'emoji' | 'keywords' | 'licence' | 'credit' | 'sensitive' | 'remix'
  >
>

/** The fields an edit may change beside a credit in setCredit's one write. */
export type CreditEditFields = Omit<WumpusPatch, 'files' | 'credit' | 'remix' | 'u_name'>

/** Remixes newest first (createdAt desc, then _id desc): one owner's, or those of one original. */
export interface ListRemixesOptions {
  owner?: string
  of?: string
  /** Leaves out the hidden ones (a report's hide: they open for admins only), from the total too. */
  withoutHidden?: boolean
  limit: number
  cursor?: string
}

/**
 * Filters that keep a known subset: each is one facet (indexed rows in SQLite) and one indexed field in
 * MongoDB (backend/src/store/facets.ts). A new filter is one more key here and there.
 */
export interface WumpusFilters {
  /** Only this uploader's animations. */
  u_email?: string
  /** Only animations with this (normalized) tag. */
  tag?: string
  /** Only animations with a ready export for this platform (made from their current Lottie). */
  fits?: Platform
  /**
   * Also the sensitive animations (WumpusRecord.sensitive); without it they are left out. The other way
   * round from the filters above: leaving out is a facet every other animation holds ('g:').
   */
  withSensitive?: boolean
}

export interface ListWumpusesOptions extends WumpusFilters {
  limit: number
  /** Opaque cursor from a previous page's nextCursor of the same query. */
  cursor?: string
  /** Words to search in name, description and tags (contract/search.ts); every word must match. */
  q?: string
  /** Default: best match first when `q` has words, else newest first. */
  sort?: ListSort
}

export interface WumpusPage {
  items: WumpusRecord[]
  /** Count of all items matching the filter (not only this page). */
  total: number
  /** Cursor of the next page, absent on the last page. */
  nextCursor?: string
}

/**
 * A sticker pack: an ordered selection of animations. The cover is always one of them (the first when
 * none is chosen, or when the chosen one leaves the pack); a pack whose every animation was deleted
 * stays, empty, with no cover. Public packs are the curated ones admins make; personal ones (`link` or
 * `private`) belong to the user who made them.
 */
export interface PackRecord {
  id: string
  name: string
  description: string
  coverWumpusId: string | null
  wumpusIds: string[]
  /** 'public' for every pack stored before personal packs existed. */
  visibility: PackVisibility
  /** Email of who made it: the admin of a public pack, the owner of a personal one. */
  createdBy: string
  /**
   * When each field was last set by an edit (an edit made offline brings its own time): a field keeps
   * the value of its latest edit. Packs stored before these times existed take their updatedAt.
   */
  editedAt: Record<PackEditField, Date>
  createdAt: Date
  updatedAt: Date
}

export type NewPack = Pick<PackRecord, 'name' | 'description' | 'wumpusIds' | 'createdBy'> & {
  coverWumpusId?: string
  /** Default 'public'. */
  visibility?: PackVisibility
  /** Optional, for seeding and tests; defaults to now. */
  createdAt?: Date
}
export type PackPatch = Partial<Pick<PackRecord, 'name' | 'description' | 'wumpusIds' | 'visibility'> & { coverWumpusId: string }>

/** What an update did: the pack as stored after it, and the fields of the patch that a later edit kept. */
export interface PackUpdate {
  pack: PackRecord
  superseded: PackEditField[]
}

export type Role = 'user' | 'admin'

export interface UserRecord {
  email: string
  user_name: string
  role: Role
  photo: string
  cover: string
  url: string
  job: string
  description: string
  /** Whether lists and searches show them sensitive animations; false until they turn it on (and for users stored before). */
  showSensitive: boolean
  /** The Firebase account this email is bound to, from its first sign-in with the email verified. */
  firebaseUid?: string
  createdAt: Date
  updatedAt: Date
}

/** Profile fields and role; the Firebase binding changes only through bindUser. */
export type UserPatch = Partial<Omit<UserRecord, 'email' | 'firebaseUid' | 'createdAt' | 'updatedAt'>>

/** A signed-in session on the server: every session token names one, and dies with it. */
export interface SessionRecord {
  id: string
  email: string
  /** The Firebase account that signed in. */
  uid: string
  createdAt: Date
  /** The absolute end, whatever renewals happen. */
  expiresAt: Date
  /** When the session was last used, give or take the service's throttle: it ends after a while idle. */
  lastUsedAt: Date
}

/** A new session; lastUsedAt defaults to its creation time. */
export type NewSession = Omit<SessionRecord, 'id' | 'createdAt' | 'lastUsedAt'> & { lastUsedAt?: Date }

/** What an admin (or the ADMIN_EMAILS setting) did, kept for the Activity page. */
export interface AuditRecord {
  id: string
  at: Date
  /** Email of who did it, or "ADMIN_EMAILS" for roles the configuration gave. */
  actor: string
  action: AuditAction
  target: { type: AuditTargetType; id: string; name: string }
  /** The fields that changed, as text. */
  changes: AuditChange[]
}

export type AuditAction = AuditActionName
export interface AuditChange {
  field: string
  from?: string
  to?: string
}
export type NewAuditRecord = Omit<AuditRecord, 'id' | 'at'>

/** A fixed-window counter shared by every instance on the same store. */
export interface RateCounter {
  /** Counts one hit for `key`: 0 when it is within the limit, else the milliseconds until it is again. */
  hit(key: string): Promise<number>
}

/** Tag and emoji counts count the sensitive animations only when asked (as lists list them: WumpusFilters). */
export interface CountOptions {
  withSensitive?: boolean
}

/** Animations: their records, lists and searches, tags, download counts and the files they claim. */
export interface WumpusRepository {
  /**
   * A page in the order the options ask for (contract/search.ts listOrder and compareListKeys): newest
   * first (createdAt desc, then _id desc), most downloaded first, or best match first, each ending on
   * createdAt and _id so paging is stable. A malformed cursor, or one of another order, throws
   * InvalidCursorError. Both adapters answer from an index, never by reading every record.
   */
  list(options: ListWumpusesOptions): Promise<WumpusPage>
  /** Undefined for unknown ids (malformed ids included). */
  get(id: string): Promise<WumpusRecord | undefined>
  /** A record whose files another record already has throws FileInUseError: a file belongs to one animation only. */
  insert(wumpus: NewWumpus): Promise<WumpusRecord>
  /**
   * Inserts a remix unless its owner (u_email) has `max` remixes already ('full'), atomically on one
   * store. Files as for insert.
   */
  insertRemix(wumpus: NewWumpus & { remix: RemixInfo }, options: { max: number }): Promise<WumpusRecord | 'full'>
  /** A page of remixes, newest first; a malformed cursor throws InvalidCursorError. From an index. */
  listRemixes(options: ListRemixesOptions): Promise<WumpusPage>
  /** How many remixes were made of this animation. */
  countRemixes(of: string): Promise<number>
  /**
   * Undefined when there is no such record, or (with `whileFiles`) when its files are no longer those
   * (compared by id): an edit made from an older read then changes nothing. Files another record has
   * throw FileInUseError, as on insert.
   */
  update(id: string, patch: WumpusPatch, options?: { whileFiles?: WumpusRecord['files'] }): Promise<WumpusRecord | undefined>
  /**
   * Removes the record (files are the caller's to remove), takes it out of every pack (a pack whose
   * cover it was gets its first animation as cover) and out of everyone's favourites; answers how many were removed (0 or 1).
   */
  delete(id: string): Promise<number>
  /**
   * A credit change with the files that carry it (services/lottie-credit.ts), in one write: the credit, the
   * Lottie naming the new maker and, when given, the derived media remade from it without a render (their
   * Telegram files), and the edit's other `fields` (as update's patch, without files) with them. Only while the record's files are still `whileFiles` and its derived media the ones read
   * (`whileMadeAt`, undefined: none) and, with `whileCredit`, its credit still the one read: answers undefined
   * otherwise, or for an unknown id. Touches updatedAt.
   */
  setCredit(
    id: string,
    change: { credit: string; lottie: FileRef; derived?: DerivedMedia; fields?: CreditEditFields },
    options: { whileFiles: WumpusRecord['files']; whileMadeAt: Date | undefined; whileCredit?: string },
  ): Promise<WumpusRecord | undefined>
  /**
   * Sets (or with null removes) the record's derived media, only while its Lottie is still the file
   * `lottieId` and, with `leaseOwner`, while that owner still holds the record's render job
   * (RenderJobRepository); answers the updated record, or undefined when the record is gone, its
   * Lottie changed or the job is another's. Does not touch updatedAt (nothing a person changed).
   */
  setDerived(
    id: string,
    lottieId: string,
    derived: DerivedMedia | null,
    options?: { leaseOwner?: string },
  ): Promise<WumpusRecord | undefined>
  /**
   * Stores the colour slots read from the record's Lottie, only while its Lottie is still the file
   * `colourSlots.source`; answers whether it did (false for unknown ids). Touches neither updatedAt nor
   * the revision: no list or search shows them.
   */
  setColourSlots(id: string, colourSlots: ColourSlots): Promise<boolean>
  /**
   * Hides the record (HiddenInfo) or, with null, shows it again: it leaves or rejoins every list, count,
   * search and tag and emoji count at once. Answers the updated record, or undefined when there is no
   * such record. Does not touch updatedAt.
   */
  setHidden(id: string, hidden: HiddenInfo | null): Promise<WumpusRecord | undefined>
  count(): Promise<number>
  /**
   * Adds download counts (animation id to how many more); unknown ids are ignored. Does not change
   * updatedAt nor the revision; moves downloadsRevision when some record changed.
   */
  addDownloads(counts: ReadonlyMap<string, number>): Promise<void>
  /** The tags in use with how many animations carry each, most used first, then by tag (the sensitive ones' only with withSensitive). */
  listTags(options?: CountOptions): Promise<TagCount[]>
  /** The emoji in use with how many animations carry each, most used first, then by character (as listTags). */
  listEmoji(options?: CountOptions): Promise<EmojiUse[]>
  /**
   * The shared store only (MongoDB): counts tags and emoji again from the animations, in the database, and
   * corrects the stored counts that differ (a write outside a transaction, by an older instance during a
   * rolling deploy, or a manual edit, can leave them off); answers how many it corrected. The embedded
   * store keeps them in each write's own transaction and has none.
   */
  correctCounts?(): Promise<number>
  /** The id of an animation that refers to this file (in any format, or among its derived files), or undefined. */
  findByFile(fileId: string): Promise<string | undefined>
  /** Whether any animation refers to this file (findByFile answers one). */
  usesFile(fileId: string): Promise<boolean>
  /**
   * Grows with every animation write made through this store object, so the HTTP layer can cache
   * list pages. Writes by other processes (several instances on one MongoDB) do not move it. Download
   * counts do not either (downloadsRevision does), nor a remix's writes (a remix is in no list, search
   * or count: what shows one keys on the record itself).
   */
  revision(): number
  /** Grows with every addDownloads that changed a record, for pages in an order by downloads. */
  downloadsRevision(): number
}

/**
 * The work of making an animation's derived media, held by one server instance at a time. An
 * animation needs it while its derived media are missing, made from another Lottie, failed, or made by
 * rules older than the version asked for.
 */
export interface RenderJob {
  /** The animation as it was when claimed. */
  record: WumpusRecord
  /** Who holds the job (one id per server instance), until the lease ends unless renewed. */
  owner: string
  leaseUntil: Date
  /** The rules' version the media are to be made with. */
  version: number
  /** Failed attempts so far at this Lottie with these rules (0 for new work). */
  failures: number
}

/**
 * Render jobs, kept on the animations: claimed atomically with a lease so that every instance on one
 * store takes a different one, taken over once a holder's lease ends (an instance that died), and not
 * due again before the retry time a failure set. A new Lottie or newer rules make a job new (no failures).
 */
export interface RenderJobRepository {
  /**
   * Claims an animation that needs derived media by rules `version`, whose lease is free or ended and
   * whose retry time (after a failure at this version) has come, all at `now`; with `id`, only that
   * animation. Answers undefined when none is due.
   */
  claim(options: { owner: string; version: number; leaseMs: number; now: Date; id?: string }): Promise<RenderJob | undefined>
  /** Extends the lease to `until`; answers whether the job's owner still holds it. */
  renew(job: RenderJob, until: Date): Promise<boolean>
  /**
   * Ends the lease, when the job's owner still holds it (answers whether it did). With `retryAt` the
   * attempt failed: one more failure is counted and the job is not due again before then (unless the
   * animation's Lottie changed meanwhile: that is new work).
   */
  release(job: RenderJob, failure?: { retryAt: Date }): Promise<boolean>
}

/** One sticker of a pack's Telegram set as the gallery last knew it. */
export interface TelegramSetSticker {
  wumpusId: string
  /** The stored file it was made from (the animation's Telegram export): another one is a sticker to replace. */
  source: string
  /** Telegram's ids; absent while sent but not yet read back from the set. */
  fileId?: string
  fileUniqueId?: string
  emoji: string[]
  keywords: string[]
}

export type TelegramSetState = 'making' | 'ready' | 'failed'

/** A pack's two Telegram sets: its sticker set, and its custom emoji set (made from the emoji files). */
export type TelegramSetKind = 'stickers' | 'emoji'

/** One of a pack's Telegram sets (services/telegram-sets.ts), keyed by pack and kind: what was asked, and what is known to be there. */
export interface TelegramSetRecord {
  packId: string
  kind: TelegramSetKind
  /** The set's name (`…_by_<bot>`), fixed when first asked. */
  name: string
  /** 'making' while a run is due or under way; 'ready' once the set matches the pack; 'failed' with a reason. */
  state: TelegramSetState
  /** Why it failed, or (while making) why it waits. */
  reason?: string
  /** The set is to be removed (its pack was deleted or is no longer public): the record goes with it. */
  removing: boolean
  /** Moves with every request: a run ends its record as ready or failed only while no newer request came. */
  generation: number
  /** Whether createNewStickerSet was answered (the set exists on Telegram). */
  created: boolean
  /** The title the set was last given. */
  title?: string
  /** The set's stickers in its order. */
  stickers: TelegramSetSticker[]
  /** Stickers sent in a call whose answer was never recorded (a crash mid-call): looked for in the set by the next run. */
  pending: TelegramSetSticker[]
  /** A personal pack's set: the Telegram user who owns it (its maker's linked account); absent for public packs (TELEGRAM_SET_OWNER_ID). */
  ownerUserId?: number
  updatedAt: Date
}

/** A run of a Telegram set, held by one server instance until its lease ends. */
export interface TelegramSetJob {
  record: TelegramSetRecord
  owner: string
  leaseUntil: Date
}

/** What a run found out, saved as it goes while the owner holds the job. */
export type TelegramSetProgress = Pick<TelegramSetRecord, 'created' | 'title' | 'stickers' | 'pending'> & {
  /** A personal set's owner as the run makes it (the pack owner's link then); absent: kept as it is. */
  ownerUserId?: number
}

/** How a run ended: the set as asked (ready), or not (failed), or gone (removed), or to be tried again at `retryAt`. */
export type TelegramSetOutcome =
  { state: 'ready' } | { state: 'failed'; reason: string } | { removed: true } | { retryAt: Date; reason: string }

/**
 * Telegram sets, one per pack and kind: claimed atomically with a lease like render jobs, so that one instance works a set
 * at a time and another takes it over once a holder's lease ends; not due again before a retry time.
 */
export interface TelegramSetRepository {
  get(packId: string, kind: TelegramSetKind): Promise<TelegramSetRecord | undefined>
  /**
   * Asks for a run: the pack's set of this kind made or brought in step with its pack, or with `remove` removed. Moves the
   * generation, sets state 'making' (reason and retry time cleared). A pack without a record of the kind gets one named
   * `name` (owned by `ownerUserId`, kept from then on); without `name` nothing is made for it (answers undefined). Answers the record.
   */
  request(
    packId: string,
    kind: TelegramSetKind,
    options: { name?: string; ownerUserId?: number; remove?: boolean; now: Date },
  ): Promise<TelegramSetRecord | undefined>
  /**
   * Asks again (as request does) for every set of a pack one of whose sets holds a sticker of this animation, by
   * its record (so an animation given an emoji file reaches its pack's emoji set too); answers how many.
   */
  requestHolding(wumpusId: string, now: Date): Promise<number>
  /** Claims a set that is 'making', whose lease is free or ended and whose retry time has come, at `now` (the least recently asked first). */
  claim(options: { owner: string; leaseMs: number; now: Date }): Promise<TelegramSetJob | undefined>
  /** Extends the lease to `until`; answers whether the owner still holds it. */
  renew(job: TelegramSetJob, until: Date): Promise<boolean>
  /** Saves progress while the owner holds the job; answers whether it did. */
  save(job: TelegramSetJob, progress: TelegramSetProgress): Promise<boolean>
  /**
   * Ends the lease, when the owner still holds it (answers whether it did). Ready, failed and removed apply only
   * while the generation is the job's: after a newer request the set stays 'making', due at once.
   */
  finish(job: TelegramSetJob, outcome: TelegramSetOutcome): Promise<boolean>
  /** The earliest retry time of a set that waits for one, for the worker's timer. */
  nextRetry(): Promise<Date | undefined>
}

// --- Telegram links (issue 36: Telegram sets of one's own packs; services/telegram-links.ts) ---

/** A gallery account's linked Telegram user. */
export interface TelegramLinkRecord {
  email: string
  telegramUserId: number
  linkedAt: Date
}

/**
 * Gallery accounts linked to Telegram users (one Telegram user per account and one account per Telegram user),
 * and the one-time start codes that link them: only a code's hash is kept, one per account (the newest).
 */
export interface TelegramLinkRepository {
  get(email: string): Promise<TelegramLinkRecord | undefined>
  /** Keeps a new code's hash for the account (with the pack whose set waits for it), replacing its earlier code. */
  putCode(email: string, code: { hash: string; expiresAt: Date; packId?: string }): Promise<void>
  /** Takes the code with this hash (gone after, used or not): whom it was made for, when it had not expired at `now`. */
  takeCode(hash: string, now: Date): Promise<{ email: string; packId?: string } | undefined>
  /** Links the account to the Telegram user, replacing its link, and taking the user from any other account. */
  link(email: string, telegramUserId: number, now: Date): Promise<TelegramLinkRecord>
  /** Removes the account's link (and its code); answers whether there was one. */
  unlink(email: string): Promise<boolean>
}

/** Sticker packs. */
export interface PackRepository {
  /**
   * The public packs, newest first (createdAt desc, then id desc), paged with newest-first cursors; a bad
   * cursor throws InvalidCursorError.
   */
  list(options: { limit: number; cursor?: string }): Promise<{ items: PackRecord[]; total: number; nextCursor?: string }>
  /**
   * One owner's personal (link and private) packs, most recently updated first (updatedAt desc, then id
   * desc), paged likewise; `total` counts them all.
   */
  listPersonal(
    owner: string,
    options: { limit: number; cursor?: string },
  ): Promise<{ items: PackRecord[]; total: number; nextCursor?: string }>
  /** Undefined for unknown ids (malformed ids included). */
  get(id: string): Promise<PackRecord | undefined>
  /** Stores the pack as given (the caller checked the animations exist); the cover defaults to the first. */
  insert(pack: NewPack): Promise<PackRecord>
  /** Stores a personal pack like insert, unless its owner (createdBy) has `max` personal packs already. */
  insertPersonal(pack: NewPack & { visibility: 'link' | 'private' }, options: { max: number }): Promise<PackRecord | 'full'>
  /**
   * Applies, atomically, the fields of the patch whose stored edit time is not later than `editedAt`
   * (default now), each then edited at `editedAt`; a later edit's field stays and is named in
   * `superseded`. updatedAt moves when some field was applied. A cover not among the animations falls
   * back to the stored one, else the first. Undefined when there is no such pack.
   */
  update(id: string, patch: PackPatch, options?: { editedAt?: Date }): Promise<PackUpdate | undefined>
  /** Answers how many were removed (0 or 1). */
  delete(id: string): Promise<number>
}

/** An animation a user keeps among their favourites, and when they favourited it. */
/** A sticker someone submitted for review (contract/submissions.ts). */
export interface SubmissionRecord {
  id: string
  /** The submitter's email and display name when they sent it. */
  u_email: string
  u_name: string
  name: string
  description: string
  tags: string[]
  emoji: StickerEmoji[]
  keywords: string[]
  licence: Licence
  credit: string
  /** '' when none. */
  source: string
  original: boolean
  sensitive: boolean
  /** The Lottie JSON as stored (purpose 'submission'); a published one's is removed, its animation has its own. */
  file?: FileRef
  state: SubmissionState
  /** The last decision's note. */
  note?: string
  /** The animation a published submission became. */
  wumpusId?: string
  createdAt: Date
  updatedAt: Date
}

export type NewSubmission = Omit<SubmissionRecord, 'id' | 'state' | 'note' | 'wumpusId' | 'createdAt' | 'updatedAt'> & {
  /** Optional, for tests; defaults to now. */
  createdAt?: Date
}

/** What an edit or a decision changes; `note: null` and `file: null` remove them. */
export type SubmissionPatch = Partial<
  Pick<
    SubmissionRecord,
    | 'name'
    | 'description'
    | 'tags'
    | 'emoji'
    | 'keywords'
    | 'licence'
    | 'credit'
    | 'source'
    | 'original'
    | 'sensitive'
    | 'state'
    | 'wumpusId'
  >
> & { file?: FileRef | null; note?: string | null }

export interface SubmissionWriteGuard {
  whileStates: readonly SubmissionState[]
}

/** The most waiting submissions one submitter may have (SUBMISSIONS_WAITING_MAX). */
export interface SubmissionWaitingCap {
  waitingMax: number
}

/**
 * Submissions: one submitter's newest first, one state's oldest first (the review queue), both paged by
 * cursor. Every write is made only while the submission is in one of the states given (`whileStates`), so
 * a withdrawal and a decision, or two decisions, never both apply.
 */
export interface SubmissionRepository {
  /**
   * With `waitingMax`: 'full' when the submitter has that many waiting already, counted and inserted
   * atomically (concurrent inserts of one submitter never pass it).
   */
  insert(submission: NewSubmission, options: SubmissionWaitingCap): Promise<SubmissionRecord | 'full'>
  insert(submission: NewSubmission): Promise<SubmissionRecord>
  get(id: string): Promise<SubmissionRecord | undefined>
  /**
   * The submission after the patch, or undefined when it is gone or in another state. With `waitingMax`, a
   * patch that makes it wait again is 'full' when its submitter has that many waiting (atomically, as insert).
   */
  update(
    id: string,
    patch: SubmissionPatch,
    options: SubmissionWriteGuard & SubmissionWaitingCap,
  ): Promise<SubmissionRecord | undefined | 'full'>
  update(id: string, patch: SubmissionPatch, options: SubmissionWriteGuard): Promise<SubmissionRecord | undefined>
  /** The submission deleted, or undefined when it is gone or in another state. */
  delete(id: string, options: { whileStates: readonly SubmissionState[] }): Promise<SubmissionRecord | undefined>
  listBySubmitter(email: string, options: { limit: number; cursor?: string }): Promise<{ items: SubmissionRecord[]; nextCursor?: string }>
  listByState(
    state: SubmissionState,
    options: { limit: number; cursor?: string },
  ): Promise<{ items: SubmissionRecord[]; nextCursor?: string }>
  /** How many of one submitter's submissions are in a state. */
  countBySubmitter(email: string, state: SubmissionState): Promise<number>
  /** How many of one submitter's submissions are in each state (one grouped read). */
  countsBySubmitter(email: string): Promise<Record<SubmissionState, number>>
}

/** A report that an animation or pack has a problem (contract/reports.ts). */
export interface ReportRecord {
  id: string
  target: { kind: ReportTargetKind; id: string }
  reason: ReportReason
  /** '' when none. */
  note: string
  /** The reporter's email when signed in. */
  reporter?: string
  /**
   * Who reported, for finding their open report again: `account:<email>` or `address:<keyed hash of the
   * address>`; never shown (the address itself is never stored).
   */
  reporterKey: string
  state: ReportState
  decision?: { kind: ReportDecision; by: string; at: Date; note: string }
  createdAt: Date
}

export type NewReport = Omit<ReportRecord, 'id' | 'state' | 'decision' | 'createdAt'> & {
  /** Optional, for tests; defaults to now. */
  createdAt?: Date
}

/** The reports in one state against one target. */
export interface ReportGroupRecord {
  target: { kind: ReportTargetKind; id: string }
  count: number
  /** Its oldest report's time. */
  oldest: Date
  /** Oldest first. */
  reports: ReportRecord[]
}

/**
 * Reports: inserted unless the same reporter has an open one against the same target (in one transaction on SQLite,
 * under a unique index over open reports on MongoDB), listed grouped by target (most reports first, then the oldest) and decided
 * a whole target's open reports at once.
 */
export interface ReportRepository {
  /** The new open report, or the reporter's open one against that target already there (`created: false`). */
  insertOpen(report: NewReport): Promise<{ record: ReportRecord; created: boolean }>
  /** One state's reports grouped by target, most reports first, then the oldest; a malformed cursor throws InvalidCursorError. */
  listGroups(state: ReportState, options: { limit: number; cursor?: string }): Promise<{ items: ReportGroupRecord[]; nextCursor?: string }>
  /** Decides every open report against the target; how many it decided. */
  decideOpen(target: { kind: ReportTargetKind; id: string }, decision: NonNullable<ReportRecord['decision']>): Promise<number>
  /** One state's reports against one target, oldest first (who to tell of a decision). */
  listByTarget(target: { kind: ReportTargetKind; id: string }, state: ReportState): Promise<ReportRecord[]>
  /** How many open reports there are against the target. */
  countOpen(target: { kind: ReportTargetKind; id: string }): Promise<number>
  /** The open reports against the animations (remixes included) whose u_email is `owner`, and how many animations they are against. */
  countOpenAgainstOwner(owner: string): Promise<{ open: number; stickers: number }>
}

/** Something that happened to a person's submission or report (contract/notifications.ts). */
export interface NotificationRecord {
  id: string
  /** The recipient's email. */
  recipient: string
  kind: NotificationKind
  subject: { kind: NotificationSubjectKind; id: string; name: string }
  /** '' when none. */
  note: string
  /** A report's decision, on `report.decided`. */
  decision?: string
  read: boolean
  createdAt: Date
}

export type NewNotification = Omit<NotificationRecord, 'id' | 'read' | 'createdAt'> & {
  /** Optional, for tests; defaults to now. */
  createdAt?: Date
}

/**
 * Notifications: one recipient's newest first, paged by cursor. An insert keeps only the recipient's newest
 * `keep` (it removes the older ones in the same write on SQLite, right after it on MongoDB).
 */
export interface NotificationRepository {
  insert(notification: NewNotification, options: { keep: number }): Promise<NotificationRecord>
  /** A malformed cursor throws InvalidCursorError. */
  listByRecipient(
    recipient: string,
    options: { limit: number; cursor?: string },
  ): Promise<{ items: NotificationRecord[]; nextCursor?: string }>
  countUnread(recipient: string): Promise<number>
  /**
   * Marks the recipient's notifications read: all, or `upTo` (an id of theirs) and every older one. Answers
   * how many it marked, or undefined when `upTo` is not one of theirs.
   */
  markRead(recipient: string, options: { upTo?: string }): Promise<number | undefined>
}

export interface FavouriteRecord {
  wumpusId: string
  favouritedAt: Date
}

/** What adding a favourite did: added it, found it already there (its time kept), or found the user at the cap. */
export type FavouriteAdded = 'added' | 'kept' | 'full'

/** Each user's favourites, keyed by (email, animation id). Deleting an animation removes its favourites. */
export interface FavouriteRepository {
  /**
   * Favourites the animation (the caller checked it exists) at `at` (default now), unless the user has it
   * already or has `max` favourites.
   */
  add(email: string, wumpusId: string, options: { max: number; at?: Date }): Promise<FavouriteAdded>
  /** Answers whether one was removed. */
  remove(email: string, wumpusId: string): Promise<boolean>
  /**
   * Newest favourited first (favouritedAt desc, then wumpusId desc), paged with newest-first cursors; a
   * bad cursor throws InvalidCursorError. `total` counts all of the user's favourites.
   */
  list(
    email: string,
    options: { limit: number; cursor?: string },
  ): Promise<{ items: FavouriteRecord[]; total: number; nextCursor?: string }>
  /** The ids of every animation the user favourited, newest favourited first. */
  ids(email: string): Promise<string[]>
}

/** Accounts, keyed by email. */
export interface UserRepository {
  get(email: string): Promise<UserRecord | undefined>
  /** Creates the user with defaults for missing fields, or applies the patch to the existing one. */
  upsert(email: string, patch: UserPatch): Promise<UserRecord>
  /** All users, by email ascending. */
  list(): Promise<UserRecord[]>
  /** Answers how many users were modified (0 when already that role or unknown). */
  setRole(email: string, role: Role): Promise<number>
  /**
   * Binds an existing user to a Firebase account, atomically: sets firebaseUid when it is unset.
   * Answers the user, or undefined when it is unknown or bound to another uid.
   */
  bind(email: string, uid: string): Promise<UserRecord | undefined>
}

/** Signed-in sessions. */
export interface SessionRepository {
  create(session: NewSession): Promise<SessionRecord>
  /** The session, or undefined when unknown or ended (expired ones are answered; the caller judges). */
  get(id: string): Promise<SessionRecord | undefined>
  /** Answers whether a session was ended. */
  delete(id: string): Promise<boolean>
  /** Ends every session of this email, except the one given; answers how many. */
  deleteForUser(email: string, options?: { exceptId?: string }): Promise<number>
  /** Moves the session's lastUsedAt to `at`, never back; answers whether the session exists. */
  touch(id: string, at: Date): Promise<boolean>
  /** Forgets sessions whose absolute end is past, and those last used before `lastUsedBefore`; answers how many. */
  deleteExpired(now: Date, options?: { lastUsedBefore?: Date }): Promise<number>
}

/** The audit log. */
export interface AuditRepository {
  append(record: NewAuditRecord): Promise<AuditRecord>
  /** Newest first, paged like the wumpus lists. */
  list(options: { limit: number; cursor?: string }): Promise<{ items: AuditRecord[]; nextCursor?: string }>
}

/** Stored files: their bytes and what is known of them. */
export interface FileRepository {
  put(file: NewFile): Promise<StoredFile>
  info(id: string): Promise<StoredFile | undefined>
  /** The whole file, or undefined when unknown. */
  read(id: string): Promise<{ info: StoredFile; bytes: Uint8Array } | undefined>
  /**
   * The file's bytes as a stream read from where they are kept, a chunk at a time (a large file is never
   * held whole in memory for one reader), or undefined when unknown. The caller ends or destroys it.
   */
  stream(id: string): Promise<{ info: StoredFile; body: Readable } | undefined>
  /** Answers whether a file was removed. */
  delete(id: string): Promise<boolean>
  /**
   * Files created before the given time, oldest first (then by id), `limit` at most, starting after
   * the file `after` when given (pass the last file of the previous page). For sweeping orphans.
   */
  list(options: { createdBefore: Date; limit: number; after?: Pick<StoredFile, 'createdAt' | 'id'> }): Promise<StoredFile[]>
  /**
   * Optional (an adapter that can answer it in one query a page; the sweep uses `list` and `usesFile`
   * otherwise): the page `list` would answer, as the orphan sweep needs it: its last file (undefined when
   * the page is empty) and, of its files, the animation and derived files no animation refers to and every
   * profile image (the sweep checks those against the users).
   */
  listSweepCandidates?(options: {
    createdBefore: Date
    limit: number
    after?: Pick<StoredFile, 'createdAt' | 'id'>
  }): Promise<{ last?: Pick<StoredFile, 'createdAt' | 'id'>; candidates: Array<Pick<StoredFile, 'id' | 'purpose'>> }>
  /** The files this user uploaded for this purpose, oldest first. */
  listByOwner(owner: string, purpose: FilePurpose): Promise<StoredFile[]>
  /**
   * Removes stored bytes that have no file record (a crash between writing them and recording them),
   * when they were written before the given time; answers how many.
   */
  sweepStrayBlobs(createdBefore: Date): Promise<number>
}

export interface Store {
  readonly kind: 'sqlite' | 'mongo'
  readonly wumpuses: WumpusRepository
  readonly packs: PackRepository
  readonly favourites: FavouriteRepository
  readonly users: UserRepository
  readonly sessions: SessionRepository
  readonly audit: AuditRepository
  readonly files: FileRepository
  readonly renderJobs: RenderJobRepository
  readonly telegramSets: TelegramSetRepository
  readonly telegramLinks: TelegramLinkRepository
  /** Discord upload jobs (discord-uploads-port.ts). */
  readonly discordUploads: DiscordUploadRepository
  readonly submissions: SubmissionRepository
  readonly reports: ReportRepository
  readonly notifications: NotificationRepository
  /**
   * A rate counter: at most `points` hits per key in each window of `durationSeconds`, counted in the
   * database, so that every instance on one MongoDB counts together.
   */
  rateCounter(options: { name: string; points: number; durationSeconds: number }): RateCounter
  /**
   * The embedded store only: a consistent copy of the database and the files it refers to, made into the
   * folder `into` while the store serves. `linkFrom`, an earlier backup, lends the files it holds already.
   */
  backup?(into: string, options?: { linkFrom?: string }): Promise<BackupReport>
  /** Throws when the store cannot be reached. */
  ping(): Promise<void>
  close(): Promise<void>
}

/** The file in a backup folder that describes it: a folder without it is not a finished backup. */
export const BACKUP_MANIFEST = 'backup.json'

/** What a backup holds. */
export interface BackupReport {
  /** When the copy of the database was finished: it holds every write acknowledged before then. */
  takenAt: Date
  schemaVersion: number
  databaseBytes: number
  files: number
  fileBytes: number
  /** Files hard-linked from the earlier backup rather than copied. */
  linkedFiles: number
}

export class InvalidCursorError extends Error {
  constructor() {
    super('Not a valid cursor')
    this.name = 'InvalidCursorError'
  }
}

/** Thrown when a record would share a file with another record. */
export class FileInUseError extends Error {
  constructor(readonly fileIds: string[]) {
    super(`Files already belong to another animation: ${fileIds.join(', ')}`)
    this.name = 'FileInUseError'
  }
}

/** Thrown when a unique key (user email) would be duplicated. */
export class DuplicateKeyError extends Error {
  constructor(message = 'Duplicate key') {
    super(message)
    this.name = 'DuplicateKeyError'
  }
}

/** Thrown when the underlying database cannot be reached. */
export class StoreUnavailableError extends Error {
  constructor(message = 'The store is unavailable', options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'StoreUnavailableError'
  }
}

/** Thrown when the database's file is damaged (a corrupt page, not a database at all): only a backup mends it. */
export class StoreDamagedError extends StoreUnavailableError {
  constructor(message = 'The database is damaged: restore it from a backup', options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'StoreDamagedError'
  }
}
