/** Telegram links in MongoDB: one document per account in `telegramLinks` (_id: the email), its link and its newest code's hash. */
import type { Collection, Db } from 'mongodb'
import type { TelegramLinkRecord, TelegramLinkRepository } from '../port'
import { guard } from './errors'

export const TELEGRAM_LINKS_COLLECTION = 'telegramLinks'

interface TelegramLinkDocument {
  _id: string
  telegramUserId?: number | null
  linkedAt?: Date | null
  codeHash?: string | null
  codeExpiresAt?: Date | null
  codePackId?: string | null
}

/** Codes are found by hash, links by Telegram user (to move one from another account). */
export async function createTelegramLinkIndexes(db: Db): Promise<void> {
  await db.collection(TELEGRAM_LINKS_COLLECTION).createIndexes([{ key: { codeHash: 1 } }, { key: { telegramUserId: 1 } }])
}

export class MongoTelegramLinks implements TelegramLinkRepository {
  private readonly links: Collection<TelegramLinkDocument>

  constructor(db: Db) {
    this.links = db.collection<TelegramLinkDocument>(TELEGRAM_LINKS_COLLECTION)
  }

  async get(email: string): Promise<TelegramLinkRecord | undefined> {
    const doc = await guard(() => this.links.findOne({ _id: email }))
    if (typeof doc?.telegramUserId !== 'number') return undefined
    return { email, telegramUserId: doc.telegramUserId, linkedAt: doc.linkedAt! }
  }

  async putCode(email: string, code: { hash: string; expiresAt: Date; packId?: string }): Promise<void> {
    await guard(() =>
      this.links.updateOne(
        { _id: email },
        { $set: { codeHash: code.hash, codeExpiresAt: code.expiresAt, codePackId: code.packId ?? null } },
        { upsert: true },
      ),
    )
  }

  async takeCode(hash: string, now: Date): Promise<{ email: string; packId?: string } | undefined> {
    const doc = await guard(() =>
      this.links.findOneAndUpdate(
        { codeHash: hash },
        { $unset: { codeHash: '', codeExpiresAt: '', codePackId: '' } },
        { returnDocument: 'before' },
      ),
    )
    if (!doc) return undefined
    if (typeof doc.telegramUserId !== 'number') await guard(() => this.links.deleteOne({ _id: doc._id, codeHash: { $exists: false } }))
    if (!doc.codeExpiresAt || doc.codeExpiresAt.getTime() <= now.getTime()) return undefined
    return { email: doc._id, ...(doc.codePackId ? { packId: doc.codePackId } : {}) }
  }

  async link(email: string, telegramUserId: number, now: Date): Promise<TelegramLinkRecord> {
    await guard(() => this.links.updateMany({ telegramUserId, _id: { $ne: email } }, { $unset: { telegramUserId: '', linkedAt: '' } }))
    await guard(() => this.links.updateOne({ _id: email }, { $set: { telegramUserId, linkedAt: now } }, { upsert: true }))
    return { email, telegramUserId, linkedAt: now }
  }

  async unlink(email: string): Promise<boolean> {
    const doc = await guard(() => this.links.findOneAndDelete({ _id: email }))
    return typeof doc?.telegramUserId === 'number'
  }
}
