// Which queries a write sent through the outbox changes. Features name them where their keys are defined
// (a few bytes on every page); the outbox sync (outbox-sync.ts, loaded later) refreshes them.
import type { QueryKey } from '@tanstack/react-query'

const refreshers: { keyPrefix: string; queryKeys: (email: string) => QueryKey[] }[] = []

/** Writes whose key starts with `keyPrefix` change these queries of the user: they are read again once sent or refused. */
export function refreshAfterWrites(keyPrefix: string, queryKeys: (email: string) => QueryKey[]): void {
  refreshers.push({ keyPrefix, queryKeys })
}

/** The queries a write of this user changes. */
export function queriesChangedBy(email: string, writeKey: string): QueryKey[] {
  return refreshers.filter((refresher) => writeKey.startsWith(refresher.keyPrefix)).flatMap((refresher) => refresher.queryKeys(email))
}
