import { randomBytes } from 'node:crypto'
/** Record shaping shared by both adapters, so they answer exactly alike. */
import { MEDIA_FORMATS } from '../../../contract/limits'
import { pickMediaFacts } from '../../../contract/media-facts'
import { newId } from './ids'
import { DEFAULT_LICENCE, LICENCES, type Licence } from '../../../contract/licence'
import { PACK_EDIT_FIELDS, type PackEditField } from '../../../contract/pack-edits'
import type {
  NewSession,
  AuditRecord,
  ColourSlots,
  DerivedFile,
  DerivedMedia,
  FilePurpose,
  FileRef,
  NewPack,
  NewWumpus,
  PackPatch,
  PackRecord,
  PackUpdate,
  RemixInfo,
  SessionRecord,
  StickerEmoji,
  StoredFile,
  UserPatch,
  UserRecord,
  WumpusPatch,
  WumpusRecord,
} from './port'

type UserDefaults = Omit<UserRecord, 'email' | 'createdAt' | 'updatedAt'>

export const USER_DEFAULTS: UserDefaults = {
  user_name: '',
  role: 'user',
  photo: '',
  cover: '',
  url: '',
  job: '',
  description: '',
  showSensitive: false,
}

const USER_PATCH_KEYS = Object.keys(USER_DEFAULTS) as Array<keyof UserPatch>
const WUMPUS_PATCH_KEYS: Array<keyof WumpusPatch> = [
  'name',
  'description',
  'files',
  'u_name',
  'tags',
  'emoji',
  'keywords',
  'licence',
  'credit',
  'sensitive',
  'remix',
]

/** Only the known keys whose value is defined (a patch may come straight from parsed input). */
function pick<T extends object>(source: T, keys: Array<keyof T>): Partial<T> {
  const result: Partial<T> = {}
  for (const key of keys) {
    const value = source[key]
    if (value !== undefined) result[key] = value
  }
  return result
}

function copyEmoji(emoji: readonly StickerEmoji[]): StickerEmoji[] {
  return emoji.map(({ char, name, shortcode }) => ({ char, name, ...(shortcode === undefined ? {} : { shortcode }) }))
}

function copyRef(file: FileRef): FileRef {
  return { id: file.id, filename: file.filename }
}

/** A copy holding only id and filename of each format's file. */
function copyFiles(files: WumpusRecord['files']): WumpusRecord['files'] {
  return { gif: copyRef(files.gif), apng: copyRef(files.apng), lottie: copyRef(files.lottie) }
}

export function userPatchFields(patch: UserPatch): UserPatch {
  return pick(patch, USER_PATCH_KEYS)
}

export function wumpusPatchFields(patch: WumpusPatch): WumpusPatch {
  const fields = pick(patch, WUMPUS_PATCH_KEYS)
  if (fields.files) fields.files = copyFiles(fields.files)
  if (fields.tags) fields.tags = [...fields.tags]
  if (fields.emoji) fields.emoji = copyEmoji(fields.emoji)
  if (fields.keywords) fields.keywords = [...fields.keywords]
  if (fields.remix) fields.remix = copyRemix(fields.remix)
  return fields
}

/** A copy of a remix's fields, its recipe's known fields only (a stored document may carry more). */
export function copyRemix(remix: RemixInfo): RemixInfo {
  const { colours, caption, outline, speed, mirror } = remix.recipe
  return {
    of: remix.of,
    recipe: {
      ...(colours === undefined ? {} : { colours: { ...colours } }),
      ...(caption === undefined ? {} : { caption: { text: caption.text, position: caption.position } }),
      ...(outline === undefined ? {} : { outline }),
      ...(speed === undefined ? {} : { speed }),
      ...(mirror === undefined ? {} : { mirror }),
    },
    source: remix.source,
    visibility: remix.visibility,
    ...(remix.keyGeneration === undefined ? {} : { keyGeneration: remix.keyGeneration }),
  }
}

/**
 * Throws unless the patch may apply to the record: a `remix` patch applies to a remix only, and keeps
 * what it is a remix of (an original never becomes a remix, nor a remix an original or another's remix).
 */
export function assertRemixPatch(current: Pick<WumpusRecord, '_id' | 'remix'>, patch: WumpusPatch): void {
  if (patch.remix && patch.remix.of !== current.remix?.of) {
    throw new Error(current.remix ? `Remix ${current._id} stays a remix of ${current.remix.of}` : `Animation ${current._id} is not a remix`)
  }
}

/** The record after a patch (assertRemixPatch). */
export function patchedWumpus(current: WumpusRecord, patch: WumpusPatch, updatedAt: Date): WumpusRecord {
  const fields = wumpusPatchFields(patch)
  assertRemixPatch(current, fields)
  return { ...current, ...fields, updatedAt }
}

/** A new record with a new id, created now unless given. Remixes come in through insertRemix only (it keeps their cap). */
export function newWumpusRecord(wumpus: NewWumpus, kind: 'original' | 'remix'): WumpusRecord {
  if ((kind === 'remix') !== (wumpus.remix !== undefined))
    throw new Error(kind === 'remix' ? 'Not a remix' : 'A remix is inserted with insertRemix')
  const now = new Date()
  return { _id: newId(now.getTime()), ...wumpusFields(wumpus), createdAt: wumpus.createdAt ?? now, updatedAt: now }
}

export function wumpusFields(wumpus: NewWumpus): Omit<WumpusRecord, '_id' | 'createdAt' | 'updatedAt'> {
  return {
    name: wumpus.name,
    description: wumpus.description,
    files: copyFiles(wumpus.files),
    u_email: wumpus.u_email,
    u_name: wumpus.u_name,
    tags: [...(wumpus.tags ?? [])],
    emoji: copyEmoji(wumpus.emoji ?? []),
    keywords: [...(wumpus.keywords ?? [])],
    downloads: 0,
    licence: wumpus.licence ?? DEFAULT_LICENCE,
    credit: wumpus.credit ?? '',
    sensitive: wumpus.sensitive ?? false,
    ...(wumpus.remix ? { remix: copyRemix(wumpus.remix) } : {}),
  }
}

/**
 * A clean copy of a stored record; records from before tags, emoji, keywords and download counts get [] and 0,
 * those from before licences DEFAULT_LICENCE and an empty credit (the gallery's own).
 */
export function toWumpusRecord(
  doc: Omit<WumpusRecord, 'tags' | 'emoji' | 'keywords' | 'downloads' | 'licence' | 'credit' | 'sensitive'> &
    Partial<Pick<WumpusRecord, 'tags' | 'emoji' | 'keywords' | 'downloads'>> & {
      licence?: string | null
      credit?: string | null
      sensitive?: boolean | null
    },
): WumpusRecord {
  return {
    _id: doc._id,
    name: doc.name,
    description: doc.description,
    files: copyFiles(doc.files),
    u_email: doc.u_email,
    u_name: doc.u_name,
    tags: [...(doc.tags ?? [])],
    emoji: copyEmoji(doc.emoji ?? []),
    keywords: [...(doc.keywords ?? [])],
    downloads: doc.downloads ?? 0,
    licence: knownLicence(doc.licence),
    credit: doc.credit ?? '',
    sensitive: doc.sensitive === true,
    ...(doc.derived ? { derived: copyDerived(doc.derived) } : {}),
    ...(doc.colourSlots ? { colourSlots: copyColourSlots(doc.colourSlots) } : {}),
    ...(doc.remix ? { remix: copyRemix(doc.remix) } : {}),
    ...(doc.hidden ? { hidden: { at: new Date(doc.hidden.at), by: doc.hidden.by } } : {}),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  }
}

/** A stored licence when it is one we know, else the default. */
export function knownLicence(value: string | null | undefined): Licence {
  return (LICENCES as readonly unknown[]).includes(value) ? (value as Licence) : DEFAULT_LICENCE
}

function copyDerivedFile(file: DerivedFile): DerivedFile {
  return { id: file.id, filename: file.filename, ...pickMediaFacts(file) }
}

function copyPreviews(previews: NonNullable<DerivedMedia['previews']>): NonNullable<DerivedMedia['previews']> {
  return { small: copyDerivedFile(previews.small), large: copyDerivedFile(previews.large), still: copyDerivedFile(previews.still) }
}

/** A copy holding only the known fields (stored documents may carry adapter-only fields). */
export function copyDerived(derived: DerivedMedia): DerivedMedia {
  const { previews } = derived
  return {
    source: derived.source,
    version: derived.version,
    madeAt: derived.madeAt,
    ...(previews ? { previews: copyPreviews(previews) } : {}),
    exports: derived.exports.map((e) => ({
      platform: e.platform,
      ...(e.file ? { file: copyDerivedFile(e.file) } : {}),
      notes: [...e.notes],
    })),
    ...(derived.error === undefined ? {} : { error: derived.error }),
  }
}

/** A copy holding only the known fields. */
export function copyColourSlots(colourSlots: ColourSlots): ColourSlots {
  return {
    source: colourSlots.source,
    version: colourSlots.version,
    slots: colourSlots.slots.map(({ id, colour, share }) => ({ id, colour, share })),
  }
}

/**
 * The record's derived media when they were made from its current Lottie (by any version of the rules);
 * undefined when it has none, or only media of a Lottie it replaced. What the API shows, what fits which
 * platform and what a render job still has to make all go by this.
 */
export function currentDerived(record: { files: { lottie: { id: string } }; derived?: DerivedMedia }): DerivedMedia | undefined {
  const derived = record.derived
  return derived && derived.source === record.files.lottie.id ? derived : undefined
}

/**
 * The rules' version the record's derived media were made by, from its current Lottie and without error;
 * 0 when it has none such. Kept beside the record by both adapters, indexed: render jobs are the records
 * below the current version (RenderJobRepository).
 */
export function renderedVersion(record: { files: { lottie: { id: string } }; derived?: DerivedMedia }): number {
  const derived = currentDerived(record)
  return derived && derived.error === undefined ? derived.version : 0
}

/** Ids of every file in the derived media (previews and exports). */
export function derivedFileIds(derived: DerivedMedia | undefined): string[] {
  if (!derived) return []
  const previews = derived.previews ? [derived.previews.small.id, derived.previews.large.id, derived.previews.still.id] : []
  return [...previews, ...derived.exports.flatMap((e) => (e.file ? [e.file.id] : []))]
}

/** A clean copy of a stored user; users from before the sensitive preference get false. */
export function toUserRecord(doc: Omit<UserRecord, 'showSensitive'> & { showSensitive?: boolean | null }): UserRecord {
  return {
    email: doc.email,
    user_name: doc.user_name,
    role: doc.role,
    photo: doc.photo,
    cover: doc.cover,
    url: doc.url,
    job: doc.job,
    description: doc.description,
    showSensitive: doc.showSensitive === true,
    ...(typeof doc.firebaseUid === 'string' ? { firebaseUid: doc.firebaseUid } : {}),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  }
}

/** A new session with a random id, starting now. */
export function newSessionRecord(session: NewSession): SessionRecord {
  const createdAt = new Date()
  return {
    id: randomBytes(16).toString('hex'),
    email: session.email,
    uid: session.uid,
    createdAt,
    expiresAt: session.expiresAt,
    lastUsedAt: session.lastUsedAt ?? createdAt,
  }
}

/** A stored session; one an older instance wrote without a last use (a rolling deploy) counts as used at its start. */
export function toSessionRecord(doc: Omit<SessionRecord, 'lastUsedAt'> & { lastUsedAt?: Date }): SessionRecord {
  const { id, email, uid, createdAt, expiresAt } = doc
  return { id, email, uid, createdAt, expiresAt, lastUsedAt: doc.lastUsedAt ?? createdAt }
}

export function toAuditRecord(doc: AuditRecord): AuditRecord {
  return {
    id: doc.id,
    at: doc.at,
    actor: doc.actor,
    action: doc.action,
    target: { type: doc.target.type, id: doc.target.id, name: doc.target.name },
    changes: doc.changes.map(({ field, from, to }) => ({
      field,
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
    })),
  }
}

/** The ids of a record's files: one per format (the same id may come twice), then its derived files. */
export function wumpusFileIds(record: Pick<WumpusRecord, 'files' | 'derived'>): string[] {
  return [...MEDIA_FORMATS.map((format) => record.files[format].id), ...derivedFileIds(record.derived)]
}

/** Whether two records' files are the same, format by format (by id). */
export function sameFiles(a: WumpusRecord['files'], b: WumpusRecord['files']): boolean {
  return MEDIA_FORMATS.every((format) => a[format].id === b[format].id)
}

/**
 * The record paths that hold file ids, for querying by file. The mongo adapter keeps the derived
 * files' ids in one array beside the derived media, so one index finds them.
 */
export const WUMPUS_FILE_ID_PATHS = [...MEDIA_FORMATS.map((format) => `files.${format}.id`), 'derived.fileIds']

type FileLabels = Pick<StoredFile, 'owner' | 'purpose'>

const FILE_PURPOSES: readonly unknown[] = ['animation', 'image', 'derived', 'submission'] satisfies FilePurpose[]

/** Owner and purpose when present and well formed; files stored before they existed have neither. */
export function fileLabels(source: { owner?: unknown; purpose?: unknown }): FileLabels {
  const labels: FileLabels = {}
  if (typeof source.owner === 'string') labels.owner = source.owner
  if (FILE_PURPOSES.includes(source.purpose)) labels.purpose = source.purpose as FilePurpose
  return labels
}

export function toStoredFile(fields: StoredFile): StoredFile {
  return {
    id: fields.id,
    contentType: fields.contentType,
    filename: fields.filename,
    size: fields.size,
    sha256: fields.sha256,
    createdAt: fields.createdAt,
    ...fileLabels(fields),
  }
}

/** A pack as stored before personal packs: no visibility nor edit times. */
type StoredPack = Omit<PackRecord, 'visibility' | 'editedAt'> & Partial<Pick<PackRecord, 'visibility' | 'editedAt'>>

/** Every field edited at one time. */
export function packEditTimes(at: Date): Record<PackEditField, Date> {
  return Object.fromEntries(PACK_EDIT_FIELDS.map((field) => [field, at])) as Record<PackEditField, Date>
}

/** A clean copy of a stored pack; one stored before personal packs is public, its fields edited at its updatedAt. */
export function toPackRecord(doc: StoredPack): PackRecord {
  const editedAt = packEditTimes(doc.updatedAt)
  for (const field of PACK_EDIT_FIELDS) {
    const at = doc.editedAt?.[field]
    if (at instanceof Date) editedAt[field] = at
  }
  return {
    id: doc.id,
    name: doc.name,
    description: doc.description,
    coverWumpusId: doc.coverWumpusId,
    wumpusIds: [...doc.wumpusIds],
    visibility: doc.visibility ?? 'public',
    createdBy: doc.createdBy,
    editedAt,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  }
}

/** The cover a pack keeps: the chosen one while it is in the pack, else the first animation (none when empty). */
export function packCover(wumpusIds: readonly string[], chosen: string | null | undefined): string | null {
  return chosen && wumpusIds.includes(chosen) ? chosen : (wumpusIds[0] ?? null)
}

/** A new pack's record, both adapters alike. */
export function newPackRecord(id: string, pack: NewPack, now: Date): PackRecord {
  const wumpusIds = [...pack.wumpusIds]
  const createdAt = pack.createdAt ?? now
  return {
    id,
    name: pack.name,
    description: pack.description,
    coverWumpusId: packCover(wumpusIds, pack.coverWumpusId),
    wumpusIds,
    visibility: pack.visibility ?? 'public',
    createdBy: pack.createdBy,
    editedAt: packEditTimes(createdAt),
    createdAt,
    updatedAt: now,
  }
}

/**
 * A pack with the fields of a patch made at `editedAt` applied, except those edited later (superseded),
 * both adapters alike. `changed` is false when every field was superseded (the pack is then as it was).
 */
export function editedPack(current: PackRecord, patch: PackPatch, editedAt: Date, now: Date): PackUpdate & { changed: boolean } {
  const given = PACK_EDIT_FIELDS.filter((field) => patch[field] !== undefined)
  const superseded = given.filter((field) => current.editedAt[field].getTime() > editedAt.getTime())
  const applied = given.filter((field) => !superseded.includes(field))
  if (applied.length === 0) return { pack: current, superseded, changed: false }
  const take = <K extends PackEditField>(field: K) => (applied.includes(field) ? patch[field] : undefined)
  const wumpusIds = [...(take('wumpusIds') ?? current.wumpusIds)]
  const chosen = take('coverWumpusId')
  const editedTimes = { ...current.editedAt }
  for (const field of applied) editedTimes[field] = editedAt
  const pack: PackRecord = {
    ...current,
    name: take('name') ?? current.name,
    description: take('description') ?? current.description,
    visibility: take('visibility') ?? current.visibility,
    wumpusIds,
    coverWumpusId: chosen && wumpusIds.includes(chosen) ? chosen : packCover(wumpusIds, current.coverWumpusId),
    editedAt: editedTimes,
    updatedAt: now,
  }
  return { pack, superseded, changed: true }
}

/** A pack without one animation; undefined when it did not hold it. */
export function packWithout(pack: PackRecord, wumpusId: string, now: Date): PackRecord | undefined {
  if (!pack.wumpusIds.includes(wumpusId)) return undefined
  const wumpusIds = pack.wumpusIds.filter((id) => id !== wumpusId)
  return { ...pack, wumpusIds, coverWumpusId: packCover(wumpusIds, pack.coverWumpusId), updatedAt: now }
}
