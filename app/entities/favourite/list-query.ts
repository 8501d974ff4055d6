// The Favourites page's query: apart from api.ts, whose part the hearts need is in every page's first load.
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import type { Favourite } from '../../../contract/favourites'
import { favouritesOnDemand } from './api'
import { favouriteKeys } from './favourite-keys'

/** The user's favourites, newest favourited first, a page at a time (offline: every one kept on this device). */
export const favouriteListQueryOptions = (email: string) =>
  infiniteQueryOptions({
    queryKey: favouriteKeys.list(email),
    queryFn: ({ pageParam, signal }) => favouritesOnDemand().then(({ readFavouritePage }) => readFavouritePage(email, pageParam, signal)),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  })

/** The user's newest `max` favourites, every page read: what a pack made from them starts with. */
export const newestFavouritesQueryOptions = (email: string, max: number) =>
  queryOptions({
    // Under the list's key, so whatever refreshes the list refreshes this too.
    queryKey: [...favouriteKeys.list(email), 'newest', max],
    queryFn: async ({ signal }) => {
      const { readFavouritePage } = await favouritesOnDemand()
      const items: Favourite[] = []
      let cursor: string | null = null
      do {
        const page = await readFavouritePage(email, cursor, signal)
        items.push(...page.items)
        cursor = page.nextCursor
      } while (cursor !== null && items.length < max)
      return items.slice(0, max)
    },
  })
