import type { WumpusRecord } from '../store/port'

/** Remixes are personal: no shared cache keeps what shows one. */
export function cacheControlOf(record: Pick<WumpusRecord, 'remix'>, publicValue: string): string {
  return record.remix ? 'private, no-store' : publicValue
}
