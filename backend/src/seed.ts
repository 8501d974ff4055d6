import type { Logger } from './logger'
import type { FileRef, Store, WumpusRecord } from './store/port'
import { stickerEmojiListSchema } from '../../contract/emoji'
import { keywordsSchema } from '../../contract/wumpus-write'
import { CONTENT_TYPE, MEDIA_FORMATS, PAGE_SIZE_MAX, type MediaFormat } from '../../contract/limits'
import { demoMascots, renderDemoSet, type DemoMascot, type RenderedDemo } from './media/demo/demo-set'
import { lottieWithAuthor } from './media/encode/lottie-meta'
import { stickerMaker } from './services/sticker-credits'

/**
 * The demo content's owner. Its address is on a reserved top-level domain (.invalid, RFC 2606):
 * nobody can own it or verify it, and the server refuses sign-ins with it, so no one can take the
 * demo content over.
 */
export const DEMO_CONTRIBUTOR = {
  email: 'studio@wumpus.invalid',
  user_name: 'Wumpus Studio',
  description: 'The house studio: the original demo mascots of Wumpus Gallery.',
  job: 'Mascot animator',
}

/**
 * Fills an empty gallery with the demo mascots, once: the demo contributor's account marks that
 * seeding happened, so a gallery emptied on purpose stays empty after a restart. Their Lotties name the
 * demo contributor in `meta.a`, as a published animation's name its maker (services/lottie-credit.ts), so
 * the Telegram files made from them carry the author too.
 */
export async function seedDemoGallery(
  store: Store,
  logger: Logger,
  render: () => Promise<RenderedDemo[]> = renderDemoSet,
): Promise<number> {
  if ((await store.users.get(DEMO_CONTRIBUTOR.email)) || (await store.wumpuses.count()) > 0) return 0
  const started = performance.now()
  const set = await render()
  const author = stickerMaker({ credit: '', u_name: DEMO_CONTRIBUTOR.user_name })
  // One second apart, the first mascot newest, so the newest-first gallery shows the authored order.
  const base = Date.now() - set.length * 1000
  for (const [index, mascot] of set.entries()) {
    const stored = await Promise.all(
      MEDIA_FORMATS.map(async (format) => {
        const file = mascot.files[format]
        const bytes = format === 'lottie' ? (lottieWithAuthor(file.bytes, author) ?? file.bytes) : file.bytes
        const info = await store.files.put({
          bytes,
          filename: file.filename,
          contentType: CONTENT_TYPE[format],
          owner: DEMO_CONTRIBUTOR.email,
          purpose: 'animation',
        })
        return [format, { id: info.id, filename: info.filename }] as const
      }),
    )
    await store.wumpuses.insert({
      name: mascot.name,
      description: mascot.description,
      tags: mascot.tags,
      ...chatFields(mascot),
      files: Object.fromEntries(stored) as Record<MediaFormat, FileRef>,
      u_email: DEMO_CONTRIBUTOR.email,
      u_name: DEMO_CONTRIBUTOR.user_name,
      createdAt: new Date(base + (set.length - 1 - index) * 1000),
    })
  }
  await store.users.upsert(DEMO_CONTRIBUTOR.email, {
    user_name: DEMO_CONTRIBUTOR.user_name,
    description: DEMO_CONTRIBUTOR.description,
    job: DEMO_CONTRIBUTOR.job,
  })
  logger.info('seeded the demo gallery', { animations: set.length, ms: Math.round(performance.now() - started) })
  return set.length
}

/** A demo mascot's emoji (with their names) and keywords, checked like an admin's. */
function chatFields(mascot: Pick<DemoMascot, 'emoji' | 'keywords'>): Pick<WumpusRecord, 'emoji' | 'keywords'> {
  return { emoji: stickerEmojiListSchema.parse(mascot.emoji), keywords: keywordsSchema.parse(mascot.keywords) }
}

/**
 * A gallery seeded before tags, or emoji and keywords, existed gets the demo mascots' ones, once each:
 * only while none of the demo contributor's animations has any, so what an admin removed later stays removed.
 */
export async function completeDemoGallery(store: Store, logger: Logger): Promise<number> {
  const { items } = await store.wumpuses.list({ u_email: DEMO_CONTRIBUTOR.email, limit: PAGE_SIZE_MAX })
  const addTags = !items.some((item) => item.tags.length > 0)
  const addEmoji = !items.some((item) => item.emoji.length > 0 || item.keywords.length > 0)
  if (!addTags && !addEmoji) return 0
  const mascots = new Map(demoMascots().map((mascot) => [mascot.name, mascot]))
  let completed = 0
  for (const item of items) {
    const mascot = mascots.get(item.name)
    if (!mascot) continue
    await store.wumpuses.update(item._id, { ...(addTags ? { tags: mascot.tags } : {}), ...(addEmoji ? chatFields(mascot) : {}) })
    completed++
  }
  if (completed > 0) logger.info('completed the demo mascots', { animations: completed, tags: addTags, emoji: addEmoji })
  return completed
}

/** The demo packs, by the demo mascots' names in pack order; the first is the cover. */
export const DEMO_PACKS = [
  {
    name: 'Cheerful Wumpuses',
    description: 'Hellos, hoorays and happy dances: eight upbeat mascots for good news.',
    stickers: [
      'Waving Wumpus',
      'Bouncy Wumpus',
      'Cheering Wumpus',
      'Dancing Wumpus',
      'Jumping Wumpus',
      'Spinning Wumpus',
      'Lovestruck Wumpus',
      'Blinky Wumpus',
    ],
  },
  {
    name: 'Sleepy Wumpuses',
    description: 'For late nights, early mornings and cold days.',
    stickers: ['Sleepy Wumpus', 'Yawning Wumpus', 'Shivering Wumpus', 'Dizzy Wumpus'],
  },
]

/**
 * Makes the demo packs from the demo mascots while the gallery has no pack at all (a fresh one, or one
 * seeded before packs existed); packs whose mascots are missing are skipped.
 */
export async function seedDemoPacks(store: Store, logger: Logger): Promise<number> {
  if ((await store.packs.list({ limit: 1 })).total > 0) return 0
  const { items } = await store.wumpuses.list({ u_email: DEMO_CONTRIBUTOR.email, limit: PAGE_SIZE_MAX })
  const idOf = new Map(items.map((item) => [item.name, item._id]))
  let made = 0
  // One second apart, the first newest, so the newest-first list shows them in the order above.
  const base = Date.now() - DEMO_PACKS.length * 1000
  for (const [index, pack] of DEMO_PACKS.entries()) {
    const wumpusIds = pack.stickers.map((name) => idOf.get(name))
    if (wumpusIds.some((id) => id === undefined)) continue
    const createdAt = new Date(base + (DEMO_PACKS.length - 1 - index) * 1000)
    await store.packs.insert({
      name: pack.name,
      description: pack.description,
      wumpusIds: wumpusIds as string[],
      createdBy: DEMO_CONTRIBUTOR.email,
      createdAt,
    })
    made++
  }
  if (made > 0) logger.info('made the demo packs', { packs: made })
  return made
}
