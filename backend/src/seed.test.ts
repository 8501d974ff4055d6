import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createLogger } from './logger'
import { demoMascots } from './media/demo-set'
import { DEMO_CONTRIBUTOR, tagDemoGallery } from './seed'
import { openEmbeddedStore } from './store/embedded'
import type { Store } from './store/port'
import { sampleWumpus } from './store/store-contract'

const logger = createLogger('silent')
let dataDir: string
let store: Store

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'wumpus-seed-'))
  store = await openEmbeddedStore({ dataDir })
})
afterEach(async () => {
  await store.close()
  await rm(dataDir, { recursive: true, force: true })
})

describe('tagDemoGallery', () => {
  it('gives demo mascots seeded before tags existed their tags, once', async () => {
    const [waving, sleepy] = demoMascots()
    const demo = { u_email: DEMO_CONTRIBUTOR.email, u_name: DEMO_CONTRIBUTOR.user_name }
    const a = await store.insertWumpus(sampleWumpus({ ...demo, name: waving!.name }))
    const b = await store.insertWumpus(sampleWumpus({ ...demo, name: sleepy!.name }))
    const custom = await store.insertWumpus(sampleWumpus({ ...demo, name: 'Custom Wumpus' }))
    const someoneElses = await store.insertWumpus(sampleWumpus({ name: waving!.name }))
    expect(await tagDemoGallery(store, logger)).toBe(2)
    expect((await store.getWumpus(a._id))?.tags).toEqual(waving!.tags)
    expect((await store.getWumpus(b._id))?.tags).toEqual(sleepy!.tags)
    expect((await store.getWumpus(custom._id))?.tags).toEqual([])
    expect((await store.getWumpus(someoneElses._id))?.tags).toEqual([])
    // Tags an admin removes later stay removed.
    await store.updateWumpus(a._id, { tags: [] })
    expect(await tagDemoGallery(store, logger)).toBe(0)
    expect((await store.getWumpus(a._id))?.tags).toEqual([])
  })
})
