// The credited maker written into an animation's stored Lottie (media/encode/lottie-meta.ts) when it is
// published or its Lottie replaced: made once there, so downloads serve the stored bytes as they are and the
// Telegram files made from that Lottie (derived-media.ts) carry the author too.
import { CONTENT_TYPE } from '../../../contract/limits'
import { pickMediaFacts } from '../../../contract/media-facts'
import type { Platform } from '../../../contract/stickers'
import { lottieWithAuthor } from '../media/encode/lottie-meta'
import { exportForPlatform } from '../media/exports/platform-exports'
import type { Logger } from '../logger'
import type { CreditEditFields, DerivedMedia, FileRef, StickerExportRecord, Store, WumpusRecord } from '../store/port'
import { stickerMaker } from './sticker-credits'

/**
 * The Lottie `ref` names, stored again with `meta.a` naming the sticker's maker (stickerMaker), as a new
 * file of `owner`'s; undefined when it names them already (or cannot be read: the inspector judged it before).
 * The caller puts the new file in the record and removes the old one once the record is written.
 */
export async function creditedLottie(
  store: Store,
  ref: FileRef,
  record: Pick<WumpusRecord, 'credit' | 'u_name'>,
  owner: string,
): Promise<FileRef | undefined> {
  const file = await store.files.read(ref.id)
  const bytes = file && lottieWithAuthor(file.bytes, stickerMaker(record))
  if (!bytes) return undefined
  const stored = await store.files.put({ bytes, contentType: CONTENT_TYPE.lottie, filename: ref.filename, owner, purpose: 'animation' })
  return { id: stored.id, filename: stored.filename }
}

/** The derived files that embed the Lottie itself, author and all: made again from the new Lottie, without a render. */
const LOTTIE_EXPORTS: readonly Platform[] = ['telegram', 'telegram-emoji']

/**
 * A credit-only edit: the stored Lottie names the new maker, and the Telegram files made from it
 * (exportForPlatform's .tgs, with its 64 KB rule and note) are made again from it, without rendering anything,
 * all written with the credit and the edit's other `fields` in one store write (WumpusRepository.setCredit).
 * Answers the record as written, or undefined when another write changed its files, derived media or credit
 * first (nothing was changed then, and the files made here are gone). The files it replaced are removed once
 * the record is written.
 */
export async function recredited(
  store: Store,
  record: WumpusRecord,
  credit: string,
  fields: CreditEditFields = {},
): Promise<WumpusRecord | undefined> {
  const lottie = await creditedLottie(store, record.files.lottie, { credit, u_name: record.u_name }, record.u_email)
  if (!lottie) return store.wumpuses.update(record._id, { ...fields, credit }, { whileFiles: record.files })
  const stored = [lottie.id]
  const replaced: string[] = []
  try {
    // Derived media made from another Lottie (or none yet) are made again anyway: only current ones are followed.
    const derived = record.derived?.source === record.files.lottie.id ? record.derived : undefined
    let remade: DerivedMedia | undefined
    if (derived) {
      const parsed = JSON.parse(new TextDecoder().decode((await store.files.read(lottie.id))!.bytes)) as unknown
      const exports: StickerExportRecord[] = []
      for (const entry of derived.exports) {
        if (!LOTTIE_EXPORTS.includes(entry.platform) || !entry.file) {
          exports.push(entry)
          continue
        }
        const made = await exportForPlatform(entry.platform, parsed)
        replaced.push(entry.file.id)
        if (!made.file) {
          exports.push({ platform: entry.platform, notes: made.notes })
          continue
        }
        const { bytes, facts } = made.file
        const info = await store.files.put({
          bytes,
          contentType: facts.contentType,
          filename: entry.file.filename,
          owner: record.u_email,
          purpose: 'derived',
        })
        stored.push(info.id)
        const file = { id: info.id, filename: info.filename, ...pickMediaFacts(facts), durationMs: Math.round(facts.durationMs) }
        exports.push({ platform: entry.platform, file, notes: made.notes })
      }
      remade = { ...derived, source: lottie.id, exports }
    }
    const written = await store.wumpuses.setCredit(
      record._id,
      { credit, lottie, fields, ...(remade ? { derived: remade } : {}) },
      { whileFiles: record.files, whileMadeAt: record.derived?.madeAt, whileCredit: record.credit },
    )
    if (!written) {
      await Promise.all(stored.map((id) => store.files.delete(id)))
      return undefined
    }
    await Promise.all([record.files.lottie.id, ...(remade ? replaced : [])].map((id) => store.files.delete(id)))
    return written
  } catch (error) {
    await Promise.all(stored.map((id) => store.files.delete(id)))
    throw error
  }
}

/** What one back-fill pass did: animations rewritten, and the Lottie bytes it read to find them. */
export interface CreditBackfillReport {
  /** Animations whose Lottie (and Telegram files) now name their maker. */
  animations: number
  /** Originals looked at. */
  checked: number
  /** Bytes of the stored Lotties read. */
  bytesRead: number
  ms: number
}

export interface CreditBackfill {
  /**
   * At start, in the background: every original whose stored Lottie does not name its maker in `meta.a`
   * (those stored before the gallery wrote it) is recredited, one animation per store write, as a
   * credit-only edit would. Another write to the animation meanwhile wins (setCredit's guard): that one is
   * left for the next pass. Nothing is kept about the pass itself: what is done shows in the Lottie's bytes,
   * so a pass cut short (a stop, a crash) is taken up by the next start.
   */
  run(): Promise<CreditBackfillReport>
  /** Stops the pass after the animation in hand, and waits for it. */
  close(): Promise<void>
}

/** Originals read at a time by the pass. */
const BACKFILL_PAGE = 50

export interface CreditBackfillDeps {
  store: Store
  logger: Logger
  /** Told of each animation rewritten, as of an edit (the Telegram sets holding it follow: services/telegram-sets.ts). */
  onChange?: (wumpusId: string) => void
}

export function createCreditBackfill({ store, logger, onChange }: CreditBackfillDeps): CreditBackfill {
  let closed = false
  let running: Promise<CreditBackfillReport> | undefined

  async function pass(): Promise<CreditBackfillReport> {
    const started = performance.now()
    const report = { animations: 0, checked: 0, bytesRead: 0, ms: 0 }
    let cursor: string | undefined
    do {
      const page = await store.wumpuses.list({ limit: BACKFILL_PAGE, cursor, withSensitive: true })
      for (const record of page.items) {
        if (closed) break
        // A remix's Lottie is made from its recipe, and its credit is its original's.
        if (record.remix) continue
        report.checked++
        try {
          const file = await store.files.read(record.files.lottie.id)
          if (!file) continue
          report.bytesRead += file.bytes.length
          if (!needsMaker(file.bytes, stickerMaker(record))) continue
          if (!(await recredited(store, record, record.credit))) continue
          report.animations++
          onChange?.(record._id)
        } catch (error) {
          logger.error('writing the maker into a Lottie failed', { id: record._id, error: String(error) })
        }
      }
      cursor = page.nextCursor
    } while (cursor && !closed)
    report.ms = Math.round(performance.now() - started)
    if (report.animations > 0) logger.info('makers written into older Lotties', report)
    return report
  }

  return {
    run() {
      running ??= pass().finally(() => (running = undefined))
      return running
    },
    async close() {
      closed = true
      await running?.catch(() => undefined)
    },
  }
}

/**
 * Whether a stored Lottie lacks `maker` in `meta.a`. The gallery writes Lotties with JSON.stringify, which
 * leaves `"a":"<maker>"` as is: found in the bytes, without parsing (a Lottie's own `a` keys hold numbers
 * and objects, and a quote inside a string is escaped). Other bytes are parsed to make sure.
 */
export function needsMaker(bytes: Uint8Array, maker: string): boolean {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (text.includes(`"a":${JSON.stringify(maker)}`)) return false
  return lottieWithAuthor(bytes, maker) !== undefined
}
