// The Favourites page's query: apart from api.ts, whose part the hearts need is in every page's first load.
import { infiniteQueryOptions } from '@tanstack/react-query'
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
