import { z } from 'zod'
import { pageQuerySchema } from './paging'
import { idSchema, wumpusSchema } from './wumpus'

/** Favourites: the animations a signed-in user keeps, on every device they sign in on. */

/** One favourite: the animation as the gallery lists it, and when it was favourited (ISO time). */
export const favouriteSchema = wumpusSchema.extend({ favouritedAt: z.string() })
export type Favourite = z.infer<typeof favouriteSchema>

/** GET /api/me/favourites: newest favourited first, paged like the gallery (X-Total-Count, Link). */
export const favouriteListSchema = z.array(favouriteSchema)
export const favouriteListQuerySchema = pageQuerySchema

/** GET /api/me/favourite-ids: every favourite's animation id, newest favourited first. */
export const favouriteIdsSchema = z.array(idSchema)
