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
 * Held by every animation that is not sensitive ("general audience"): a list without `withSensitive`
 * belongs to it, so leaving the sensitive ones out is one more facet like any filter.
 */
export const GENERAL_FACET = 'g:'
/**
 * Not filters: a sensitive animation's tags and emoji again, so the counts without the sensitive ones are
 * the counts less these (SQLite); only the few sensitive animations hold them.
 */
export const SENSITIVE_TAG_FACET = 'st:'
export const SENSITIVE_EMOJI_FACET = 'se:'

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
export function recordFacets(record: Pick<WumpusRecord, 'u_email' | 'tags' | 'emoji' | 'files' | 'derived' | 'sensitive'>): string[] {
  const chars = [...new Set(record.emoji.map((emoji) => emoji.char))]
  return [
    `u:${record.u_email}`,
    ...(record.sensitive ? [] : [GENERAL_FACET]),
    ...record.tags.map((tag) => TAG_FACET + tag),
    ...readyPlatforms(record).map((p) => FITS_FACET + p),
    ...chars.map((char) => EMOJI_FACET + char),
    ...(record.sensitive
      ? [...record.tags.map((tag) => SENSITIVE_TAG_FACET + tag), ...chars.map((char) => SENSITIVE_EMOJI_FACET + char)]
      : []),
  ]
}

/** The facet keys a list must belong to all of. */
export function filterFacets(filters: WumpusFilters): string[] {
  const keys: string[] = []
  if (filters.u_email !== undefined) keys.push(`u:${filters.u_email}`)
  if (filters.tag !== undefined) keys.push(TAG_FACET + filters.tag)
  if (filters.fits !== undefined) keys.push(FITS_FACET + filters.fits)
  if (!filters.withSensitive) keys.push(GENERAL_FACET)
  return keys
}

/**
 * Not sensitive, in MongoDB: false, or no field at all (stored before the flag, or by an older instance during
 * a rolling deploy). Two points of the `sensitive` indexes, which MongoDB reads merged in the list's order.
 */
export const NOT_SENSITIVE = { $in: [false, null] }

/** The MongoDB filter for the filters. */
export function mongoFilter(filters: WumpusFilters): Record<string, string | typeof NOT_SENSITIVE> {
  const filter: Record<string, string | typeof NOT_SENSITIVE> = {}
  if (filters.u_email !== undefined) filter.u_email = filters.u_email
  if (filters.tag !== undefined) filter.tags = filters.tag
  if (filters.fits !== undefined) filter.fits = filters.fits
  if (!filters.withSensitive) filter.sensitive = NOT_SENSITIVE
  return filter
}

/**
 * Record fields a filter matches in MongoDB; each gets indexes that lead with it. `fits` is readyPlatforms, kept on the document;
 * `sensitive` (NOT_SENSITIVE) is matched by the lists without the sensitive animations.
 */
export const MONGO_FILTER_FIELDS = ['u_email', 'tags', 'fits', 'sensitive'] as const
