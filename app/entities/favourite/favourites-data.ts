// Reading and changing the signed-in user's favourites, offline first. Every read is kept on this device
// (IndexedDB, per user) and answers when the network fails; writes go through the outbox; and the writes
// not sent yet are applied over whatever was read, so the hearts and the Favourites page show them at once,
// also after a reload offline. Loaded lazily (api.ts).
import type { QueryClient } from '@tanstack/react-query'
import { API_PATHS, favouriteListPath, favouritePath } from '../../../contract/api-paths'
import type { Favourite } from '../../../contract/favourites'
import type { Wumpus } from '../../../contract/wumpus'
import { apiRequest, isApiError, trusted } from '../../lib/api-client'
import { fetchPage, type Page } from '../../lib/paging'
import { keepFavourites, readKeptFavourites } from '../../lib/local-data/favourites-store'
import { pendingWrites, queueWrite } from '../../lib/local-data/outbox'
import { refreshAfterWrites } from '../../lib/synced-queries'
import { favouriteKeys } from './favourite-keys'

/** Outbox key of a favourite write: favouriting then unfavouriting the same sticker offline sends only the last. */
const FAVOURITE_WRITE_PREFIX = 'favourite:'

/** A page of the user's favourites; offline, every one kept on this device, marked `fromOfflineCopy`. */
export type FavouritePage = Page<Favourite>

// Every favourites query reads through this module, so none is cached before this has run.
refreshAfterWrites(FAVOURITE_WRITE_PREFIX, (email) => [favouriteKeys.ids(email), favouriteKeys.list(email)])

/** The user's favourite writes not sent yet: animation id → favourited, oldest first. */
async function pendingFavourites(email: string): Promise<Map<string, boolean>> {
  const pending = new Map<string, boolean>()
  for (const write of await pendingWrites(email).catch(() => [])) {
    if (write.key.startsWith(FAVOURITE_WRITE_PREFIX)) pending.set(write.key.slice(FAVOURITE_WRITE_PREFIX.length), write.method === 'PUT')
  }
  return pending
}

/** Ids with the pending writes applied: the ones favourited here first (newest first), the unfavourited ones gone. */
export function withPendingIds(ids: readonly string[], pending: ReadonlyMap<string, boolean>): string[] {
  const present = new Set(ids)
  const added = [...pending].filter(([id, on]) => on && !present.has(id)).map(([id]) => id)
  return [...added.reverse(), ...ids.filter((id) => pending.get(id) !== false)]
}

const noConnection = (error: unknown) => isApiError(error) && error.code === 'NETWORK_ERROR'

/**
 * The ids of the user's favourites, newest first. The pending writes are read before the server is asked:
 * a write sent in between is then either still applied here or already in the server's answer.
 */
export async function readFavouriteIds(email: string, signal?: AbortSignal): Promise<string[]> {
  const pending = await pendingFavourites(email)
  let ids: string[]
  try {
    ids = await apiRequest(API_PATHS.favouriteIds, trusted<string[]>(), { signal })
    await keepFavourites(email, (kept) => ({ ...kept, ids }))
  } catch (error) {
    const kept = noConnection(error) ? (await readKeptFavourites(email)).ids : undefined
    if (!kept) throw error
    ids = kept
  }
  return withPendingIds(ids, pending)
}

/** One page of the user's favourites; offline, the first page is every favourite kept here and there is no next. */
export async function readFavouritePage(email: string, cursor: string | null, signal?: AbortSignal): Promise<FavouritePage> {
  const pending = await pendingFavourites(email)
  let page: FavouritePage
  try {
    // The service worker keeps no copy of it (it is personal): a network failure lands below.
    page = await fetchPage(favouriteListPath({ cursor }), trusted<Favourite[]>(), signal)
    const fetched = page.items
    await keepFavourites(email, (kept) => ({
      ...kept,
      items: cursor === null ? fetched : mergeById(kept.items ?? [], fetched),
      // The server has these: their copies are not needed any more.
      added: Object.fromEntries(Object.entries(kept.added ?? {}).filter(([id]) => !fetched.some((item) => item._id === id))),
    }))
  } catch (error) {
    const kept = noConnection(error) && cursor === null ? (await readKeptFavourites(email)).items : undefined
    if (!kept) throw error
    page = { items: kept, total: kept.length, nextCursor: null, fromOfflineCopy: true }
  }
  const shown = page.items.filter((item) => pending.get(item._id) !== false)
  // Favourited here and not sent yet: at the top of the first page, from the copy made when the heart was tapped.
  let added: Favourite[] = []
  if (cursor === null) {
    const { added: kept = {} } = await readKeptFavourites(email)
    const present = new Set(page.items.map((item) => item._id))
    added = withPendingIds([], pending)
      .filter((id) => !present.has(id))
      .flatMap((id) => (kept[id] ? [kept[id]] : []))
  }
  return { ...page, items: [...added, ...shown], total: page.total + added.length - (page.items.length - shown.length) }
}

function mergeById(before: Favourite[], more: Favourite[]): Favourite[] {
  const ids = new Set(more.map((item) => item._id))
  return [...before.filter((item) => !ids.has(item._id)), ...more]
}

/**
 * Favourites or unfavourites a sticker for the user: the hearts change at once (the ids query), the
 * Favourites list is read again when next shown, and the write goes through the outbox (sent at once when
 * the server can be reached).
 */
export async function setFavourite(queryClient: QueryClient, email: string, wumpus: Wumpus, on: boolean): Promise<void> {
  const idsKey = favouriteKeys.ids(email)
  // A read under way would answer without this change: it is dropped (and the change applied over what was there).
  await queryClient.cancelQueries({ queryKey: idsKey })
  const known = queryClient.getQueryData<string[]>(idsKey) !== undefined
  queryClient.setQueryData<string[]>(idsKey, (ids = []) => withPendingIds(ids, new Map([[wumpus._id, on]])))
  void queryClient.invalidateQueries({ queryKey: favouriteKeys.list(email), refetchType: 'none' })

  // The write first: it is what a reload or a closed tab right after the tap must not lose.
  await queueWrite(email, {
    method: on ? 'PUT' : 'DELETE',
    path: favouritePath(wumpus._id),
    key: `${FAVOURITE_WRITE_PREFIX}${wumpus._id}`,
    label: `${on ? 'Favourite' : 'Unfavourite'} “${wumpus.name}”`,
  })
  await keepFavourites(email, ({ added = {}, ...kept }) => {
    const { [wumpus._id]: _dropped, ...others } = added
    return { ...kept, added: on ? { ...others, [wumpus._id]: { ...wumpus, favouritedAt: new Date().toISOString() } } : others }
  })
  // Nothing was read yet: the other hearts learn the rest now (this one stays on, its write being pending).
  if (!known) void queryClient.invalidateQueries({ queryKey: idsKey })
}
