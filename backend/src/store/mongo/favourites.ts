/** Favourites in MongoDB: the `favourites` collection, one document per (email, animation id), unique. */
import type { ClientSession, Collection, Db, Filter } from 'mongodb'
import { decodeCursor, newestKey, pageOf } from '../list-order'
import { afterNewest } from './paging'
import { DuplicateKeyError, type FavouriteAdded, type FavouriteRecord, type FavouriteRepository } from '../port'
import type { AccountCaps } from './caps'
import { guard } from './errors'

interface FavouriteDocument {
  email: string
  wumpusId: string
  favouritedAt: Date
}

export const FAVOURITES_COLLECTION = 'favourites'
/** Each user's favourites, newest favourited first (the list's order and its index). */
export const FAVOURITES_NEWEST_FIRST = { email: 1, favouritedAt: -1, wumpusId: -1 } as const

const fromDocument = (doc: FavouriteDocument): FavouriteRecord => ({ wumpusId: doc.wumpusId, favouritedAt: doc.favouritedAt })

export class MongoFavourites implements FavouriteRepository {
  private readonly favourites: Collection<FavouriteDocument>

  constructor(
    db: Db,
    private readonly caps: AccountCaps,
  ) {
    this.favourites = db.collection<FavouriteDocument>(FAVOURITES_COLLECTION)
  }

  /** Within the cap atomically: the count and the insert are one transaction in the account's turn (caps.ts). */
  async add(email: string, wumpusId: string, options: { max: number; at?: Date }): Promise<FavouriteAdded> {
    if (await guard(() => this.favourites.findOne({ email, wumpusId }, { projection: { _id: 1 } }))) return 'kept'
    try {
      return await this.caps.inTurn(`favourites:${email}`, async (session): Promise<FavouriteAdded> => {
        if (await this.favourites.findOne({ email, wumpusId }, { projection: { _id: 1 }, session })) return 'kept'
        if ((await this.favourites.countDocuments({ email }, { session })) >= options.max) return 'full'
        await this.favourites.insertOne({ email, wumpusId, favouritedAt: options.at ?? new Date() }, { session })
        return 'added'
      })
    } catch (error) {
      // The same favourite added at the same moment elsewhere: the unique index kept one.
      if (error instanceof DuplicateKeyError) return 'kept'
      throw error
    }
  }

  async remove(email: string, wumpusId: string): Promise<boolean> {
    const { deletedCount } = await guard(() => this.favourites.deleteOne({ email, wumpusId }))
    return deletedCount > 0
  }

  async list(
    email: string,
    options: { limit: number; cursor?: string },
  ): Promise<{ items: FavouriteRecord[]; total: number; nextCursor?: string }> {
    const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, 'new')
    const filter: Filter<FavouriteDocument> = after ? { email, $or: afterNewest(after, 'favouritedAt', 'wumpusId') } : { email }
    const [docs, total] = await guard(() =>
      Promise.all([
        this.favourites
          .find(filter)
          .sort(FAVOURITES_NEWEST_FIRST)
          .limit(options.limit + 1)
          .toArray(),
        this.favourites.countDocuments({ email }),
      ]),
    )
    const page = pageOf(docs, options.limit, {
      items: (shown) => shown.map(fromDocument),
      key: (favourite) => newestKey(favourite.favouritedAt, favourite.wumpusId),
    })
    return { ...page, total }
  }

  async ids(email: string): Promise<string[]> {
    const docs = await guard(() =>
      this.favourites
        .find({ email }, { projection: { _id: 0, wumpusId: 1 } })
        .sort(FAVOURITES_NEWEST_FIRST)
        .toArray(),
    )
    return docs.map((doc) => doc.wumpusId)
  }

  /** Forgets a deleted animation in everyone's favourites (found by index). */
  /** Removes the animation's favourites; with `session`, inside its transaction. */
  async removeWumpus(wumpusId: string, session?: ClientSession): Promise<void> {
    await guard(() => this.favourites.deleteMany({ wumpusId }, { session }))
  }
}
