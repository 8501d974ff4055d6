// The signed-in user's favourites. Loaded on every page with cards (the hearts), so the reading code
// itself (favourites-data.ts: the network, the copy kept on this device, the outbox) is a lazy chunk.
import { queryOptions } from '@tanstack/react-query'
import { afterInteractive } from '../../lib/after-interactive'
import { favouriteKeys } from './favourite-keys'

/** The reading and writing code and the sign-in ask, loaded on first use. */
export const favouritesOnDemand = () => import('./on-demand')

/** The ids of the user's favourites (newest first), with their writes not sent yet applied. */
export const favouriteIdsQueryOptions = (email: string) =>
  queryOptions({
    queryKey: favouriteKeys.ids(email),
    // The hearts wait until the page is interactive: their state is not worth slowing the first load for.
    queryFn: ({ signal }) =>
      afterInteractive()
        .then(favouritesOnDemand)
        .then(({ readFavouriteIds }) => readFavouriteIds(email, signal)),
  })
