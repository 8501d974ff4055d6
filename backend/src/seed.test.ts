import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createLogger } from './logger'
import { demoMascots } from './media/demo/demo-set'
import { DEMO_CONTRIBUTOR, DEMO_PACKS, seedDemoPacks, completeDemoGallery, seedDemoGallery } from './seed'
import { openTempStore, type TempStore } from '../test/support/temp-store'
import type { Store } from './store/port'
import { sampleWumpus } from '../test/store-behaviour/store-behaviour'

const logger = createLogger('silent')
let temp: TempStore
let store: Store

beforeEach(async () => {
  temp = await openTempStore('wumpus-seed-')
  store = temp.store
})
afterEach(async () => {
  await temp.close()
})

describe('seedDemoGallery', () => {
  it('stores Lotties that name the demo contributor in meta.a, other meta keys kept, as publish does', async () => {
    const [waving] = demoMascots()
    const lottie = { v: '5.7.0', fr: 30, ip: 0, op: 30, w: 64, h: 64, layers: [], meta: { g: 'demo generator' } }
    const rendered = async () => [
      {
        slug: waving!.slug,
        name: waving!.name,
        description: waving!.description,
        tags: waving!.tags,
        emoji: waving!.emoji,
        keywords: waving!.keywords,
        files: {
          gif: { bytes: new Uint8Array([1]), filename: 'waving.gif' },
          apng: { bytes: new Uint8Array([2]), filename: 'waving.png' },
          lottie: { bytes: new TextEncoder().encode(JSON.stringify(lottie)), filename: 'waving.json' },
        },
      },
    ]
    expect(await seedDemoGallery(store, logger, rendered)).toBe(1)
    const [seeded] = (await store.wumpuses.list({ limit: 5 })).items
    const stored = JSON.parse(new TextDecoder().decode((await store.files.read(seeded!.files.lottie.id))!.bytes)) as typeof lottie
    expect(stored.meta).toEqual({ g: 'demo generator', a: DEMO_CONTRIBUTOR.user_name })
    expect(stored.layers).toEqual([])
  })
})

describe('completeDemoGallery', () => {
  it('gives demo mascots seeded before tags and emoji existed their tags, emoji and keywords, once', async () => {
    const [waving, sleepy] = demoMascots()
    const demo = { u_email: DEMO_CONTRIBUTOR.email, u_name: DEMO_CONTRIBUTOR.user_name }
    const a = await store.wumpuses.insert(sampleWumpus({ ...demo, name: waving!.name }))
    const b = await store.wumpuses.insert(sampleWumpus({ ...demo, name: sleepy!.name }))
    const custom = await store.wumpuses.insert(sampleWumpus({ ...demo, name: 'Custom Wumpus' }))
    const someoneElses = await store.wumpuses.insert(sampleWumpus({ name: waving!.name }))
    expect(await completeDemoGallery(store, logger)).toBe(2)
    const completed = await store.wumpuses.get(a._id)
    expect(completed?.tags).toEqual(waving!.tags)
    expect(completed?.emoji.map((emoji) => emoji.char)).toEqual(['👋', '🙂', '😊'])
    expect(completed?.emoji[0]).toEqual({ char: '👋', name: 'waving hand', shortcode: 'wave' })
    expect(completed?.keywords).toEqual(waving!.keywords)
    expect((await store.wumpuses.get(b._id))?.tags).toEqual(sleepy!.tags)
    for (const id of [custom._id, someoneElses._id])
      expect(await store.wumpuses.get(id)).toMatchObject({ tags: [], emoji: [], keywords: [] })
    // What an admin removes later stays removed.
    await store.wumpuses.update(a._id, { tags: [], emoji: [], keywords: [] })
    expect(await completeDemoGallery(store, logger)).toBe(0)
    expect(await store.wumpuses.get(a._id)).toMatchObject({ tags: [], emoji: [], keywords: [] })
  })

  it('adds emoji to a gallery tagged before emoji existed, leaving its tags as they are', async () => {
    const [waving] = demoMascots()
    const demo = { u_email: DEMO_CONTRIBUTOR.email, u_name: DEMO_CONTRIBUTOR.user_name }
    const a = await store.wumpuses.insert(sampleWumpus({ ...demo, name: waving!.name, tags: ['edited'] }))
    expect(await completeDemoGallery(store, logger)).toBe(1)
    expect(await store.wumpuses.get(a._id)).toMatchObject({ tags: ['edited'], keywords: waving!.keywords })
  })
})

describe('seedDemoPacks', () => {
  it('makes the demo packs from the demo mascots in order, while there is no pack', async () => {
    const demo = { u_email: DEMO_CONTRIBUTOR.email, u_name: DEMO_CONTRIBUTOR.user_name }
    const ids = new Map<string, string>()
    for (const mascot of demoMascots())
      ids.set(mascot.name, (await store.wumpuses.insert(sampleWumpus({ ...demo, name: mascot.name })))._id)
    expect(await seedDemoPacks(store, logger)).toBe(DEMO_PACKS.length)
    const { items } = await store.packs.list({ limit: 10 })
    expect(items.map((pack) => pack.name)).toEqual(DEMO_PACKS.map((pack) => pack.name))
    expect(items[0]!.wumpusIds).toEqual(DEMO_PACKS[0]!.stickers.map((name) => ids.get(name)))
    expect(items[0]!.coverWumpusId).toBe(ids.get(DEMO_PACKS[0]!.stickers[0]!))
    expect(await seedDemoPacks(store, logger)).toBe(0)
    expect((await store.packs.list({ limit: 10 })).total).toBe(DEMO_PACKS.length)
  })

  it('skips a pack whose mascots are missing', async () => {
    expect(await seedDemoPacks(store, logger)).toBe(0)
    expect((await store.packs.list({ limit: 10 })).total).toBe(0)
  })
})
