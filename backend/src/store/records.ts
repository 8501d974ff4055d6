/** Record shaping shared by both adapters, so they answer exactly alike. */
import { MEDIA_FORMATS } from '../../../contract/limits'
import type {
  AuditRecord,
  FilePurpose,
  FileRef,
  NewWumpus,
  SessionRecord,
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
}

const USER_PATCH_KEYS = Object.keys(USER_DEFAULTS) as Array<keyof UserPatch>
const WUMPUS_PATCH_KEYS: Array<keyof WumpusPatch> = ['name', 'description', 'files', 'u_name', 'tags']

/** Only the known keys whose value is defined (a patch may come straight from parsed input). */
function pick<T extends object>(source: T, keys: Array<keyof T>): Partial<T> {
  const result: Partial<T> = {}
  for (const key of keys) {
    const value = source[key]
    if (value !== undefined) result[key] = value
  }
  return result
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
  return fields
}

export function wumpusFields(wumpus: NewWumpus): Omit<WumpusRecord, '_id' | 'createdAt' | 'updatedAt'> {
  return {
    name: wumpus.name,
    description: wumpus.description,
    files: copyFiles(wumpus.files),
    u_email: wumpus.u_email,
    u_name: wumpus.u_name,
    tags: [...(wumpus.tags ?? [])],
    downloads: 0,
  }
}

/** A clean copy of a stored record; records from before tags and download counts get [] and 0. */
export function toWumpusRecord(doc: Omit<WumpusRecord, 'tags' | 'downloads'> & Partial<Pick<WumpusRecord, 'tags' | 'downloads'>>): WumpusRecord {
  return {
    _id: doc._id,
    name: doc.name,
    description: doc.description,
    files: copyFiles(doc.files),
    u_email: doc.u_email,
    u_name: doc.u_name,
    tags: [...(doc.tags ?? [])],
    downloads: doc.downloads ?? 0,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  }
}

export function toUserRecord(doc: UserRecord): UserRecord {
  return {
    email: doc.email,
    user_name: doc.user_name,
    role: doc.role,
    photo: doc.photo,
    cover: doc.cover,
    url: doc.url,
    job: doc.job,
    description: doc.description,
    ...(typeof doc.firebaseUid === 'string' ? { firebaseUid: doc.firebaseUid } : {}),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  }
}

export function toSessionRecord(doc: SessionRecord): SessionRecord {
  return { id: doc.id, email: doc.email, uid: doc.uid, createdAt: doc.createdAt, expiresAt: doc.expiresAt }
}

export function toAuditRecord(doc: AuditRecord): AuditRecord {
  return {
    id: doc.id,
    at: doc.at,
    actor: doc.actor,
    action: doc.action,
    target: { type: doc.target.type, id: doc.target.id, name: doc.target.name },
    changes: doc.changes.map(({ field, from, to }) => ({ field, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) })),
  }
}

/** The ids of a record's files, one per format (the same id may come twice). */
export function wumpusFileIds(files: WumpusRecord['files']): string[] {
  return MEDIA_FORMATS.map((format) => files[format].id)
}

/** The record paths that hold file ids, for querying by file. */
export const WUMPUS_FILE_ID_PATHS = MEDIA_FORMATS.map((format) => `files.${format}.id`)

type FileLabels = Pick<StoredFile, 'owner' | 'purpose'>

const FILE_PURPOSES: readonly unknown[] = ['animation', 'image'] satisfies FilePurpose[]

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
