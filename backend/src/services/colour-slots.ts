// The colour slots of an original's Lottie (contract/remix/colours.ts): what GET /api/wumpus/{id}/colours
// shows and a remix's recipe names. Read in the render worker, never on the main thread (a 2 MB Lottie of
// 19,000 colours takes over a second), and stored with the animation (the record's colourSlots).
//  - Read after a publish, after an edit that replaced the Lottie, and at start for every original without
//    them (the demo set on a first start, animations stored before slots were kept). Remixes have none.
//  - Stored with the Lottie they were read from and the rules' version: slots of another Lottie, or read by
//    older rules, count as none.
//  - Asked for while missing (not read yet, or the read failed), they are read then, in the worker, and
//    stored; asks for one Lottie at once share one read.
import { COLOUR_SLOTS_VERSION, type ColourSlotSummary } from '../../../contract/remix/colours'
import { notFound } from '../domain/errors'
import type { Logger } from '../logger'
import { readColourSlots } from '../media/render/render-pool'
import type { Store, WumpusRecord } from '../store/port'

export interface ColourSlotService {
  /** The slots of the record's Lottie: as stored, else read in the render worker and stored. NOT_FOUND when its Lottie file is gone. */
  of(record: WumpusRecord): Promise<ColourSlotSummary[]>
  /** After a publish or an edit: reads and stores the slots of an original that lacks them, in the background (never rejects). */
  refresh(record: WumpusRecord): Promise<void>
  /** At start: every original without slots of its current Lottie gets them, one at a time; resolves with how many were read. */
  backfill(): Promise<{ animations: number }>
  /** Resolves once no slots are being read. */
  idle(): Promise<void>
  /** Stops the backfill and waits for the reads in hand. */
  close(): Promise<void>
}

export interface ColourSlotDeps {
  store: Store
  logger: Logger
  /** Reads the slots of a Lottie's bytes (default: in the shared render worker). */
  read?: (lottie: Uint8Array) => Promise<ColourSlotSummary[]>
}

/** Originals read at a time by the backfill. */
const BACKFILL_PAGE = 50

/** The record's stored slots when they were read from its current Lottie by the current rules. */
export function storedColourSlots(record: WumpusRecord): ColourSlotSummary[] | undefined {
  const kept = record.colourSlots
  return kept && kept.source === record.files.lottie.id && kept.version === COLOUR_SLOTS_VERSION ? kept.slots : undefined
}

export function createColourSlotService({ store, logger, read = readColourSlots }: ColourSlotDeps): ColourSlotService {
  /** The reads under way, by Lottie file id (a file belongs to one animation). */
  const reading = new Map<string, Promise<ColourSlotSummary[]>>()
  let closed = false

  /** Reads the slots of the record's Lottie in the worker and stores them (a failure to store them is logged). */
  function readAndStore(record: WumpusRecord): Promise<ColourSlotSummary[]> {
    const source = record.files.lottie.id
    let pending = reading.get(source)
    if (!pending) {
      pending = (async () => {
        const file = await store.files.read(source)
        if (!file) throw notFound('The animation’s Lottie file is missing')
        const slots = await read(file.bytes)
        await store.wumpuses
          .setColourSlots(record._id, { source, version: COLOUR_SLOTS_VERSION, slots })
          .catch((error: unknown) => logger.error('storing colour slots failed', { id: record._id, error: String(error) }))
        return slots
      })().finally(() => reading.delete(source))
      reading.set(source, pending)
    }
    return pending
  }

  async function idle(): Promise<void> {
    while (reading.size > 0) await Promise.allSettled(reading.values())
  }

  return {
    async of(record) {
      return storedColourSlots(record) ?? readAndStore(record)
    },

    async refresh(record) {
      if (closed || record.remix || storedColourSlots(record)) return
      await readAndStore(record).then(
        () => undefined,
        (error: unknown) => logger.error('reading colour slots failed', { id: record._id, error: String(error) }),
      )
    },

    async backfill() {
      let animations = 0
      let cursor: string | undefined
      do {
        const page = await store.wumpuses.list({ limit: BACKFILL_PAGE, cursor, withSensitive: true })
        for (const record of page.items) {
          if (closed) return { animations }
          if (storedColourSlots(record)) continue
          try {
            await readAndStore(record)
            animations++
          } catch (error) {
            logger.error('reading colour slots failed', { id: record._id, error: String(error) })
          }
        }
        cursor = page.nextCursor
      } while (cursor && !closed)
      return { animations }
    },

    idle,

    async close() {
      closed = true
      await idle()
    },
  }
}
