// The signed-in user's favourites. Loaded on every page with cards (the hearts), so the reading code
// itself (favourites-data.ts: the network, the copy kept on this device, the outbox) is a lazy chunk.
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { afterInteractive } from '../../lib/after-interactive'
import { refreshAfterWrites } from '../sync/synced-queries'

/** Outbox key of a favourite write: favouriting then unfavouriting the same sticker offline sends only the last. */
export const FAVOURITE_WRITE_PREFIX = 'favourite:'

export const favouriteKeys = {
  all: ['favourites'] as const,
  user: (email: string) => [...favouriteKeys.all, email] as const,
  ids: (email: string) => [...favouriteKeys.user(email), 'ids'] as const,
  list: (email: string) => [...favouriteKeys.user(email), 'list'] as const,
}

refreshAfterWrites(FAVOURITE_WRITE_PREFIX, (email) => [favouriteKeys.user(email)])

const data = () => import('./favourites-data')

/** The ids of the user's favourites (newest first), with their writes not sent yet applied. */
export const favouriteIdsQueryOptions = (email: string) =>
  queryOptions({
    queryKey: favouriteKeys.ids(email),
    // The hearts wait until the page is interactive: their state is not worth slowing the first load for.
    queryFn: ({ signal }) =>
      afterInteractive()
        .then(data)
        .then(({ readFavouriteIds }) => readFavouriteIds(email, signal)),
  })

/** The user's favourites, newest favourited first, a page at a time (offline: every one kept on this device). */
export const favouriteListQueryOptions = (email: string) =>
  infiniteQueryOptions({
    queryKey: favouriteKeys.list(email),
    queryFn: ({ pageParam, signal }) => data().then(({ readFavouritePage }) => readFavouritePage(email, pageParam, signal)),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  })
