/**
 * The list filters (port WumpusFilters) in one place for both adapters: as facet keys in SQLite (rows of
 * wumpus_facets, indexed in both list orders) and as MongoDB fields with their indexes.
 * Adding a filter is one entry in each function here.
 */
import { PLATFORMS, type Platform } from '../../../contract/stickers'
import type { DerivedMedia, WumpusFilters, WumpusRecord } from './port'
import { currentDerived } from './records'

export const TAG_FACET = 't:'
const FITS_FACET = 'p:'
/** Not a filter: the emoji in use are counted from these (SQLite). */
export const EMOJI_FACET = 'e:'

/**
 * The platforms the record has a ready export for: made from its current Lottie (a replaced Lottie's
 * exports fit nothing) with a file. The same rule as GET /api/wumpus/{id}/stickers' 'ready'.
 */
export function readyPlatforms(record: { files: { lottie: { id: string } }; derived?: DerivedMedia }): Platform[] {
  const derived = currentDerived(record)
  if (!derived) return []
  return PLATFORMS.filter((platform) => derived.exports.some((e) => e.platform === platform && e.file))
}

/** The facet keys a record belongs to. */
export function recordFacets(record: Pick<WumpusRecord, 'u_email' | 'tags' | 'emoji' | 'files' | 'derived'>): string[] {
  return [
    `u:${record.u_email}`,
    ...record.tags.map((tag) => TAG_FACET + tag),
    ...readyPlatforms(record).map((p) => FITS_FACET + p),
    ...new Set(record.emoji.map((emoji) => EMOJI_FACET + emoji.char)),
  ]
}

/** The facet keys a list must belong to all of. */
export function filterFacets(filters: WumpusFilters): string[] {
  const keys: string[] = []
  if (filters.u_email !== undefined) keys.push(`u:${filters.u_email}`)
  if (filters.tag !== undefined) keys.push(TAG_FACET + filters.tag)
  if (filters.fits !== undefined) keys.push(FITS_FACET + filters.fits)
  return keys
}

/** The MongoDB filter for the filters. */
export function mongoFilter(filters: WumpusFilters): Record<string, string> {
  const filter: Record<string, string> = {}
  if (filters.u_email !== undefined) filter.u_email = filters.u_email
  if (filters.tag !== undefined) filter.tags = filters.tag
  if (filters.fits !== undefined) filter.fits = filters.fits
  return filter
}

/** Record fields a filter matches in MongoDB; each gets indexes that lead with it. `fits` is readyPlatforms, kept on the document. */
export const MONGO_FILTER_FIELDS = ['u_email', 'tags', 'fits'] as const
