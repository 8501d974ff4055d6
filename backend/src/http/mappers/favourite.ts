import type { Favourite } from '../../../../contract/favourites'
import type { FavouriteView } from '../../services/favourites'
import type { FileKeys } from '../file-keys'
import type { MakerEmailShown } from '../../domain/visibility'
import { toApiWumpus } from './wumpus'

/** A favourite as GET /api/me/favourites lists it: the animation as the gallery shows it, and when it was favourited. */
export function toApiFavourite({ record, favouritedAt }: FavouriteView, keys?: FileKeys, makerEmailShown?: MakerEmailShown): Favourite {
  return { ...toApiWumpus(record, keys, makerEmailShown), favouritedAt: favouritedAt.toISOString() }
}
