/** API paths the app, the service worker and the server agree on. */
import { PAGE_SIZE_DEFAULT } from './limits'
import type { ListSort } from './search'
import type { Platform } from './platforms'

/** What narrows or orders the gallery list (the home page's search). */
export interface GalleryListFilter {
  q?: string
  tag?: string
  /** Only animations with a ready export for this platform. */
  fits?: Platform
  sort?: ListSort
}

/**
 * One page of the gallery: `GET /api/wumpuses`. Keys always come in the same order, so the same page
 * has the same URL everywhere (offline copies, server-rendered answers). The first page has no cursor.
 */
export function wumpusListPath({
  limit = PAGE_SIZE_DEFAULT,
  cursor,
  q,
  tag,
  fits,
  sort,
}: GalleryListFilter & { limit?: number; cursor?: string | null } = {}): string {
  const query = new URLSearchParams({ limit: String(limit) })
  if (q) query.set('q', q)
  if (tag) query.set('tag', tag)
  if (fits) query.set('fits', fits)
  if (sort) query.set('sort', sort)
  if (cursor) query.set('cursor', cursor)
  return `/api/wumpuses?${query}`
}

/** The most used tags with their counts: `GET /api/tags`. */
export function tagListPath(limit: number): string {
  return `/api/tags?limit=${limit}`
}

/** The most used emoji with their names and counts: `GET /api/emoji`. */
export function emojiListPath(limit: number): string {
  return `/api/emoji?limit=${limit}`
}

/** The first frame of an animation as a PNG: `GET /api/wumpus/{id}/still.png` (link previews, Copy image). */
export function wumpusStillPath(id: string): string {
  return `/api/wumpus/${encodeURIComponent(id)}/still.png`
}

/** The colour slots a remix recipe can change, and presets: `GET /api/wumpus/{id}/colours`. */
export function wumpusColoursPath(id: string): string {
  return `/api/wumpus/${encodeURIComponent(id)}/colours`
}

/** A page of a list paged by cursor only: `{path}?limit=&cursor=`. */
export function pagedPath(path: string, { limit = PAGE_SIZE_DEFAULT, cursor }: { limit?: number; cursor?: string | null }): string {
  const query = new URLSearchParams({ limit: String(limit) })
  if (cursor) query.set('cursor', cursor)
  return `${path}?${query}`
}

/** One page of packs, newest first: `GET /api/packs`. */
export function packListPath(page: { limit?: number; cursor?: string | null } = {}): string {
  return pagedPath('/api/packs', page)
}

/** One pack with its stickers and downloads: `GET /api/packs/{id}`. */
export function packPath(id: string): string {
  return `/api/packs/${encodeURIComponent(id)}`
}

/** POST: an admin's "make or update the pack's Telegram set now". */
export function packTelegramPath(id: string): string {
  return `${packPath(id)}/telegram`
}

/**
 * One platform's ZIP of a pack: `GET /api/packs/{id}/download/{platform}`; a pack the platform takes only
 * in parts has one ZIP per part, `?part=1` to `?part=N`; `key`: in the URLs shown to a personal pack's maker
 * and admins (a plain download link carries no bearer).
 */
export function packDownloadPath(id: string, platform: string, part?: number, key?: string): string {
  const query = new URLSearchParams()
  if (part !== undefined) query.set('part', String(part))
  if (key !== undefined) query.set('key', key)
  const search = query.toString()
  return `${packPath(id)}/download/${platform}${search ? `?${search}` : ''}`
}

/** One's personal packs, most recently edited first, a page at a time: `GET /api/me/packs`. */
export function myPackListPath(page: { limit?: number; cursor?: string | null } = {}): string {
  return pagedPath('/api/me/packs', page)
}

const segment = (value: string) => encodeURIComponent(value)

/** The bare paths, for matching requests (the service worker, the offline fallback). */
export const API_PATHS = {
  wumpusList: '/api/wumpuses',
  userAnimations: '/api/wumpus',
  tags: '/api/tags',
  emoji: '/api/emoji',
  filesPrefix: '/api/files/',
  config: '/api/config',
  session: '/api/session',
  /** DELETE: every session of one's account ends ("sign out everywhere"). */
  sessions: '/api/sessions',
  users: '/api/users',
  /** GET: the embedded store's backups (admins); POST: make one now. */
  backups: '/api/backups',
  renders: '/api/renders',
  uploadImage: '/api/uploads/image',
  uploadLottieLink: '/api/uploads/lottie-link',
  packs: '/api/packs',
  /** GET: one's personal packs, most recently edited first, paged; POST: a new personal pack. */
  myPacks: '/api/me/packs',
  /** GET: one's favourites, newest favourited first, paged. */
  favourites: '/api/me/favourites',
  /** GET: the ids of all one's favourites (for the hearts on cards). */
  favouriteIds: '/api/me/favourite-ids',
} as const

/** The query parameter of a private remix's file URLs that opens them without a bearer token. */
export const FILE_KEY_PARAM = 'key'

/** The answer header of a file download (`?download=1`) that counted: the id of the animation it counted for. */
export const DOWNLOAD_COUNTED_HEADER = 'X-Download-Counted'

/**
 * A stored file's URL: `/api/files/{id}/{name}`, ending with its name so that a download keeps it; `key` opens
 * a private remix's file without a bearer token (backend/src/http/file-keys.ts).
 */
export function filePath(id: string, filename: string, key?: string): string {
  return `${API_PATHS.filesPrefix}${id}/${encodeURIComponent(filename)}${key ? `?${FILE_KEY_PARAM}=${key}` : ''}`
}

/** The id of a stored file from its URL path (`/api/files/{id}`, with its name or not); undefined for any other path. */
export function fileIdOfPath(path: string): string | undefined {
  return /^\/api\/files\/([0-9a-f]{24})/.exec(path)?.[1]
}

/** One animation: `GET` reads it, `DELETE` removes it. */
export const wumpusPath = (id: string) => `/api/wumpus/${segment(id)}`
/** `PUT` edits one animation. */
export const wumpusEditPath = (id: string) => `/api/wumpuses/${segment(id)}`
/** Its file for each chat platform. */
export const stickersPath = (id: string) => `${wumpusPath(id)}/stickers`
/** Matches wumpusPath and stickersPath. */
export const WUMPUS_DETAIL_PATTERN = /^\/api\/wumpus\/[^/]+(\/stickers)?$/

/** One uploader's animations, a page at a time. */
export function userAnimationsPath(
  email: string,
  { limit = PAGE_SIZE_DEFAULT, cursor }: { limit?: number; cursor?: string | null } = {},
): string {
  const query = new URLSearchParams({ u_email: email.trim(), limit: String(limit) })
  if (cursor) query.set('cursor', cursor)
  return `${API_PATHS.userAnimations}?${query}`
}

export const profilePath = (email: string) => `/api/profile/${segment(email.trim())}`
/** Matches packPath. */
export const PACK_PATTERN = /^\/api\/packs\/[^/]+$/

/** Matches profilePath. */
export const PROFILE_PATTERN = /^\/api\/profile\/[^/]+$/
/** `PUT`: the sign-in exchange, and profile edits. */
export const userPath = (email: string) => `/api/user/${segment(email.trim())}`
export const isAdminPath = (email: string) => `/api/admin/${segment(email)}`
export const makeAdminPath = (email: string) => `/api/user/admin/${segment(email)}`
/** `DELETE` (admins): every session of this user ends. */
export const userSessionsPath = (email: string) => `/api/admin/${segment(email)}/sessions`
export const uploadAnimationPath = (format: string) => `/api/uploads/animation?format=${format}`

/** `PUT` favourites one animation, `DELETE` unfavourites it (both idempotent). */
export const favouritePath = (id: string) => `${API_PATHS.favourites}/${segment(id)}`

/** One's favourites, newest favourited first, a page at a time. */
export function favouriteListPath(page: { limit?: number; cursor?: string | null } = {}): string {
  return pagedPath(API_PATHS.favourites, page)
}

/** The admin audit log, a page at a time. */
export function activityPath({ limit, cursor }: { limit: number; cursor?: string | null }): string {
  const query = new URLSearchParams({ limit: String(limit) })
  if (cursor) query.set('cursor', cursor)
  return `/api/activity?${query}`
}
