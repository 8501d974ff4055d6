import type { WumpusRecord } from '../store/port'

/** Remixes are personal, and a hidden animation is for admins only: no shared cache keeps what shows one. */
export function cacheControlOf(record: Pick<WumpusRecord, 'remix' | 'hidden'>, publicValue: string): string {
  return record.remix || record.hidden ? 'private, no-store' : publicValue
}
