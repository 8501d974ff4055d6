// The order derived media are made in: an admin's publish before people's remixes, accounts taking
// turns, a bounded queue whose overflow waits in the store; and the caps every rendered Lottie passes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Logger } from '../logger'
import type { MadeMedia } from '../media/exports/make-media'
import { lottie, lottieBytes } from '../../test/fixtures/lottie'
import { openTempStore, type TempStore } from '../../test/support/temp-store'
import type { FileRef, Store, WumpusRecord } from '../store/port'
import { createDerivedMediaService, type DerivedMediaService } from './derived-media'

let temp: TempStore
let store: Store
const services: DerivedMediaService[] = []
const logger: Logger = { error: () => {}, info: () => {}, debug: () => {} }

beforeEach(async () => {
  temp = await openTempStore('wumpus-derived-order-')
  store = temp.store
})
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()))
  await temp.close()
})

async function animation(name: string, owner: string, bytes = lottieBytes({ nm: name })): Promise<WumpusRecord> {
  const put = async (data: Uint8Array, filename: string, contentType: string): Promise<FileRef> => {
    const info = await store.files.put({ bytes: data, filename, contentType, owner, purpose: 'animation' })
    return { id: info.id, filename: info.filename }
  }
  return store.wumpuses.insert({
    name,
    description: 'An animation for the render order tests',
    u_email: owner,
    u_name: 'Maker',
    files: {
      gif: await put(new Uint8Array([1]), 'a.gif', 'image/gif'),
      apng: await put(new Uint8Array([2]), 'a.png', 'image/apng'),
      lottie: await put(bytes, 'a.json', 'application/json'),
    },
  })
}

const tiny = {
  bytes: new Uint8Array([1, 2, 3]),
  facts: { contentType: 'image/webp', bytes: 3, width: 1, height: 1, frames: 1, durationMs: 0 },
}
const made: MadeMedia = { previews: { small: tiny, large: tiny, still: tiny }, exports: [], timings: {} as MadeMedia['timings'] }

/** A render worker stand-in that records the Lotties it renders (by name) and holds the first until let go. */
function heldDerive() {
  const calls: string[] = []
  let letGo!: () => void
  const held = new Promise<void>((resolve) => (letGo = resolve))
  let started!: () => void
  const first = new Promise<void>((resolve) => (started = resolve))
  const derive = async (lottie: object): Promise<MadeMedia> => {
    calls.push((lottie as { nm: string }).nm)
    if (calls.length === 1) {
      started()
      await held
    }
    return made
  }
  return { calls, derive, letGo, first }
}

describe('derived media order', () => {
  it('makes an admin’s publish before the remixes of two accounts queued ahead of it, and lets the accounts take turns', async () => {
    const worker = heldDerive()
    const service = createDerivedMediaService({ store, logger, derive: worker.derive })
    services.push(service)
    const busy = await animation('busy', 'a@example.com')
    const running = service.refresh(busy._id, { priority: 'remix', account: 'a@example.com' })
    await worker.first
    const asked: Array<Promise<void>> = [running]
    for (let i = 0; i < 4; i++) {
      const record = await animation(`a${i}`, 'a@example.com')
      asked.push(service.refresh(record._id, { priority: 'remix', account: 'a@example.com' }))
    }
    const b = await animation('b0', 'b@example.com')
    asked.push(service.refresh(b._id, { priority: 'remix', account: 'b@example.com' }))
    const published = await animation('published', 'admin@example.com')
    asked.push(service.refresh(published._id))
    expect(service.waiting('publish')).toBe(1)
    expect(service.waiting('remix')).toBe(5)
    worker.letGo()
    await Promise.all(asked)
    expect(worker.calls).toEqual(['busy', 'published', 'a0', 'b0', 'a1', 'a2', 'a3'])
  })

  it('holds only so many in memory: the rest are made from the store once room frees, and every caller hears back', async () => {
    const worker = heldDerive()
    const service = createDerivedMediaService({ store, logger, derive: worker.derive, maxQueued: 2 })
    services.push(service)
    const first = await animation('first', 'a@example.com')
    const asked = [service.refresh(first._id, { priority: 'remix', account: 'a@example.com' })]
    await worker.first
    for (let i = 0; i < 5; i++) {
      const record = await animation(`r${i}`, 'a@example.com')
      asked.push(service.refresh(record._id, { priority: 'remix', account: 'a@example.com' }))
    }
    expect(service.waiting('remix')).toBe(2)
    worker.letGo()
    await Promise.all(asked)
    expect(worker.calls.slice(0, 3)).toEqual(['first', 'r0', 'r1'])
    expect([...worker.calls].sort()).toEqual(['first', 'r0', 'r1', 'r2', 'r3', 'r4'])
  })

  it('renders no outlined variant that fails the Lottie caps an upload passes', async () => {
    // Within the caps alone; the outline draws every layer once more, which is past them.
    const layers = Array.from({ length: 600 }, () => (lottie().layers as object[])[0])
    const original = await animation('Heavy', 'admin@example.com', lottieBytes({ nm: 'Heavy', layers }))
    const copy = await animation('Remix', 'a@example.com', lottieBytes({ nm: 'remix' }))
    await store.wumpuses.delete(copy._id)
    const remix = await store.wumpuses.insertRemix(
      { ...copy, remix: { of: original._id, recipe: {}, source: original.files.lottie.id, visibility: 'private' } },
      { max: 10 },
    )
    if (remix === 'full') throw new Error('no room for the remix')
    const rendered: string[] = []
    const service = createDerivedMediaService({
      store,
      logger,
      derive: async (lottie) => {
        rendered.push((lottie as { nm: string }).nm)
        return made
      },
    })
    services.push(service)
    await service.refresh(remix._id, { priority: 'remix', account: 'a@example.com' })
    expect(rendered).toEqual([])
    const derived = (await store.wumpuses.get(remix._id))!.derived!
    expect(derived.error).toMatch(/complex/i)
  })
})
