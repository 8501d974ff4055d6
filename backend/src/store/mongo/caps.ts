/**
 * Caps per account (favourites, personal packs) checked and kept in one transaction. Counting and inserting
 * in a transaction is not enough on MongoDB: two transactions inserting different documents do not
 * conflict, so both could pass the count (snapshot isolation). Each also writes its account's turn
 * document in `caps`, so concurrent ones for one account conflict on it, and the driver runs the loser
 * again, which then counts the winner's insert.
 */
import type { ClientSession, Collection, Db, MongoClient } from 'mongodb'
import { guard } from './errors'

interface TurnDocument {
  _id: string
  turns: number
}

export const CAPS_COLLECTION = 'caps'

export class AccountCaps {
  private readonly turns: Collection<TurnDocument>

  constructor(
    private readonly client: MongoClient,
    db: Db,
  ) {
    this.turns = db.collection<TurnDocument>(CAPS_COLLECTION)
  }

  /**
   * Runs `write` in a transaction after taking the turn of `key` (an account's cap, "favourites:<email>"):
   * what it counts and inserts is as if no other write of that key ran meanwhile.
   */
  inTurn<T>(key: string, write: (session: ClientSession) => Promise<T>): Promise<T> {
    return guard(() =>
      this.client.withSession((session) =>
        session.withTransaction(async () => {
          await this.turns.updateOne({ _id: key }, { $inc: { turns: 1 } }, { upsert: true, session })
          return write(session)
        }),
      ),
    )
  }
}
