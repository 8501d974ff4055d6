/**
 * The list filters (port WumpusFilters) in one place for both adapters: as facet keys of the embedded
 * catalog (each facet keeps its records in list order) and as MongoDB fields with their indexes.
 * Adding a filter (e.g. a platform whose sticker export exists) is one entry in each function here.
 */
import type { WumpusFilters, WumpusRecord } from './port'

const TAG_FACET = 't:'

/** The facet keys a record belongs to. */
export function recordFacets(record: Pick<WumpusRecord, 'u_email' | 'tags'>): string[] {
  return [`u:${record.u_email}`, ...record.tags.map((tag) => TAG_FACET + tag)]
}

/** The facet keys a list must belong to all of. */
export function filterFacets(filters: WumpusFilters): string[] {
  const keys: string[] = []
  if (filters.u_email !== undefined) keys.push(`u:${filters.u_email}`)
  if (filters.tag !== undefined) keys.push(TAG_FACET + filters.tag)
  return keys
}

/** The tag of a tag facet key, or undefined for other facets. */
export function tagOfFacet(key: string): string | undefined {
  return key.startsWith(TAG_FACET) ? key.slice(TAG_FACET.length) : undefined
}

/** The MongoDB filter for the filters. */
export function mongoFilter(filters: WumpusFilters): Record<string, string> {
  const filter: Record<string, string> = {}
  if (filters.u_email !== undefined) filter.u_email = filters.u_email
  if (filters.tag !== undefined) filter.tags = filters.tag
  return filter
}

/** Record fields a filter matches in MongoDB; each gets indexes that lead with it. */
export const MONGO_FILTER_FIELDS = ['u_email', 'tags'] as const
