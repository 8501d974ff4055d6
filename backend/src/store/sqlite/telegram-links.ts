/** Telegram links in SQLite (the telegram_links table, one row per account: its link and its newest code's hash). */
import type { TelegramLinkRecord, TelegramLinkRepository } from '../port'
import { guarded, type Db } from './database'

interface LinkRow {
  email: string
  telegram_user_id: number | null
  linked_at: number | null
  code_hash: string | null
  code_expires_at: number | null
  code_pack_id: string | null
}

export class SqliteTelegramLinks implements TelegramLinkRepository {
  private readonly sql
  private readonly take
  private readonly relink

  constructor(db: Db) {
    this.sql = {
      get: db.prepare<[string], LinkRow>('SELECT * FROM telegram_links WHERE email = ?'),
      byCode: db.prepare<[string], LinkRow>('SELECT * FROM telegram_links WHERE code_hash = ?'),
      putCode: db.prepare<{ email: string; hash: string; expires: number; pack: string | null }>(
        `INSERT INTO telegram_links (email, code_hash, code_expires_at, code_pack_id) VALUES (@email, @hash, @expires, @pack)
         ON CONFLICT (email) DO UPDATE SET code_hash = @hash, code_expires_at = @expires, code_pack_id = @pack`,
      ),
      clearCode: db.prepare<[string]>(
        'UPDATE telegram_links SET code_hash = NULL, code_expires_at = NULL, code_pack_id = NULL WHERE email = ?',
      ),
      dropRow: db.prepare<[string]>('DELETE FROM telegram_links WHERE email = ? AND telegram_user_id IS NULL AND code_hash IS NULL'),
      release: db.prepare<{ email: string; user: number }>(
        'UPDATE telegram_links SET telegram_user_id = NULL, linked_at = NULL WHERE telegram_user_id = @user AND email <> @email',
      ),
      link: db.prepare<{ email: string; user: number; now: number }>(
        `INSERT INTO telegram_links (email, telegram_user_id, linked_at) VALUES (@email, @user, @now)
         ON CONFLICT (email) DO UPDATE SET telegram_user_id = @user, linked_at = @now`,
      ),
      unlink: db.prepare<[string]>('DELETE FROM telegram_links WHERE email = ?'),
    }
    this.take = db.transaction((hash: string, now: number) => {
      const row = this.sql.byCode.get(hash)
      if (!row) return undefined
      this.sql.clearCode.run(row.email)
      this.sql.dropRow.run(row.email)
      if (row.code_expires_at === null || row.code_expires_at <= now) return undefined
      return { email: row.email, ...(row.code_pack_id !== null ? { packId: row.code_pack_id } : {}) }
    })
    this.relink = db.transaction((email: string, user: number, now: number) => {
      this.sql.release.run({ email, user })
      this.sql.link.run({ email, user, now })
    })
  }

  get(email: string): Promise<TelegramLinkRecord | undefined> {
    return guarded(() => {
      const row = this.sql.get.get(email)
      if (!row || row.telegram_user_id === null) return undefined
      return { email: row.email, telegramUserId: row.telegram_user_id, linkedAt: new Date(row.linked_at!) }
    })
  }

  putCode(email: string, code: { hash: string; expiresAt: Date; packId?: string }): Promise<void> {
    return guarded(() => {
      this.sql.putCode.run({ email, hash: code.hash, expires: code.expiresAt.getTime(), pack: code.packId ?? null })
    })
  }

  takeCode(hash: string, now: Date): Promise<{ email: string; packId?: string } | undefined> {
    return guarded(() => this.take(hash, now.getTime()))
  }

  link(email: string, telegramUserId: number, now: Date): Promise<TelegramLinkRecord> {
    return guarded(() => {
      this.relink(email, telegramUserId, now.getTime())
      return { email, telegramUserId, linkedAt: now }
    })
  }

  unlink(email: string): Promise<boolean> {
    return guarded(() => {
      const row = this.sql.get.get(email)
      this.sql.unlink.run(email)
      return row?.telegram_user_id !== null && row !== undefined
    })
  }
}
