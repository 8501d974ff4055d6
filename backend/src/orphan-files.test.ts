import type { Document } from 'mongodb'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startMongoWireServer } from '../test/support/mongo-wire-server'
import { openTempStore } from '../test/support/temp-store'
import type { NewFile, Store } from './store/port'
import { openMongoStore } from './store/mongo/open-mongo-store'
import type { Logger } from './logger'
import { startOrphanSweeper, sweepOrphanFiles } from './orphan-files'

/** The commands the MongoDB stand-in received. */
const commands: Document[] = []
const stores: Record<Store['kind'], () => Promise<{ store: Store; close: () => Promise<void> }>> = {
  sqlite: () => openTempStore('wumpus-orphans-'),
  mongo: async () => {
    const server = await startMongoWireServer({ onCommand: (command) => commands.push(command) })
    const store = await openMongoStore({ uri: server.uri, dbName: 'orphans' })
    return {
      store,
      close: async () => {
        await store.close()
        await server.close()
      },
    }
  },
}

let store: Store
let close: () => Promise<void>
afterEach(async () => {
  await close()
})

const put = (filename: string, purpose?: NewFile['purpose']) =>
  store.files.put({ bytes: new Uint8Array([1, 2, 3]), contentType: 'image/gif', filename, owner: 'a@example.com', purpose })
const aDayLater = () => Date.now() + 25 * 60 * 60 * 1000

describe.each(['sqlite', 'mongo'] as const)('sweepOrphanFiles on %s', (kind) => {
  beforeEach(async () => {
    ;({ store, close } = await stores[kind]())
  })

  it('removes day-old uploads nothing refers to, and keeps everything in use', async () => {
    const published = {
      gif: await put('p.gif', 'animation'),
      apng: await put('p.png', 'animation'),
      lottie: await put('p.json', 'animation'),
    }
    await store.wumpuses.insert({
      name: 'Kept',
      description: 'A published animation',
      u_email: 'a@example.com',
      u_name: 'A',
      files: { gif: published.gif, apng: published.apng, lottie: published.lottie },
    })
    const abandoned = await put('abandoned.gif', 'animation')
    const photo = await put('photo.png', 'image')
    const cover = await put('cover.png', 'image')
    const unusedImage = await put('unused.png', 'image')
    const legacy = await put('legacy.gif')
    await store.users.upsert('a@example.com', { photo: `/api/files/${photo.id}/photo.png`, cover: `/api/files/${cover.id}/cover.png` })

    expect(await sweepOrphanFiles(store, { now: aDayLater(), batch: 2 })).toBe(2)
    const left = new Set((await store.files.list({ createdBefore: new Date(aDayLater()), limit: 100 })).map((f) => f.id))
    expect(left).toEqual(new Set([published.gif.id, published.apng.id, published.lottie.id, photo.id, cover.id, legacy.id]))
    expect(left.has(abandoned.id) || left.has(unusedImage.id)).toBe(false)
  })

  it('keeps a submission’s Lottie while the submission waits for review, however old', async () => {
    const sticker = await put('sticker.json', 'submission')
    expect(await sweepOrphanFiles(store, { now: aDayLater() + 30 * 24 * 3600_000 })).toBe(0)
    expect(await store.files.info(sticker.id)).toBeDefined()
  })

  it('keeps the derived files a record uses and removes those of no record', async () => {
    const files = { gif: await put('p.gif', 'animation'), apng: await put('p.png', 'animation'), lottie: await put('p.json', 'animation') }
    const record = await store.wumpuses.insert({
      name: 'Derived',
      description: 'With previews',
      u_email: 'a@example.com',
      u_name: 'A',
      files,
    })
    const preview = await put('p.preview.webp', 'derived')
    const discord = await put('p.discord.png', 'derived')
    const leftOver = await put('old.preview.webp', 'derived')
    const facts = { contentType: 'image/webp', bytes: 3, width: 300, height: 300, frames: 20, durationMs: 1000 }
    await store.wumpuses.setDerived(record._id, files.lottie.id, {
      source: files.lottie.id,
      version: 1,
      madeAt: new Date(),
      previews: { small: { ...preview, ...facts }, large: { ...preview, ...facts }, still: { ...preview, ...facts } },
      exports: [{ platform: 'discord', file: { ...discord, ...facts, contentType: 'image/apng' }, notes: [] }],
    })
    expect(await sweepOrphanFiles(store, { now: aDayLater() })).toBe(1)
    expect(await store.files.info(leftOver.id)).toBeUndefined()
    expect(await store.files.info(preview.id)).toBeDefined()
    expect(await store.files.info(discord.id)).toBeDefined()
  })

  it('leaves fresh uploads alone: the admin may still be filling in the form', async () => {
    await put('fresh.gif', 'animation')
    expect(await sweepOrphanFiles(store)).toBe(0)
  })
})

describe('sweepOrphanFiles on MongoDB', () => {
  beforeEach(async () => {
    ;({ store, close } = await stores.mongo())
  })

  it('checks each page of files against the animations in a few commands, not one per file', async () => {
    const files = { gif: await put('p.gif', 'animation'), apng: await put('p.png', 'animation'), lottie: await put('p.json', 'animation') }
    await store.wumpuses.insert({ name: 'Kept', description: 'Published', u_email: 'a@example.com', u_name: 'A', files })
    for (let i = 0; i < 27; i++) await put(`abandoned-${i}.gif`, i % 3 ? 'animation' : 'derived')
    commands.length = 0
    expect(await sweepOrphanFiles(store, { now: aDayLater(), batch: 10 })).toBe(27)
    for (const file of Object.values(files)) expect(await store.files.info(file.id)).toBeDefined()
    const asked = commands.filter((command) => Object.values(command).includes('wumpuses'))
    expect(asked.filter((command) => !('distinct' in command))).toEqual([])
    // Three pages of ten and an empty one; a distinct per place an animation keeps file ids.
    expect(asked.length).toBeLessThanOrEqual(3 * 4)
  })
})

describe('startOrphanSweeper', () => {
  beforeEach(async () => {
    ;({ store, close } = await stores.sqlite())
  })

  it('runs every job of a sweep when one fails, and logs which failed', async () => {
    const errors: Array<Record<string, unknown> | undefined> = []
    const logger: Logger = { error: (_message, fields) => errors.push(fields), info: () => undefined, debug: () => undefined }
    store.files.sweepStrayBlobs = () => Promise.reject(new Error('BSONObjectTooLarge'))
    const deleteExpired = store.sessions.deleteExpired.bind(store.sessions)
    const sessionsSwept: Date[] = []
    store.sessions.deleteExpired = (now, options) => {
      sessionsSwept.push(now)
      return deleteExpired(now, options)
    }
    const stop = startOrphanSweeper(store, logger, { sessionIdleSeconds: 60 })
    try {
      await vi.waitFor(() => expect(sessionsSwept).toHaveLength(1))
      expect(errors).toEqual([{ job: 'strayBlobs', error: 'Error: BSONObjectTooLarge' }])
    } finally {
      stop()
    }
  })
})
