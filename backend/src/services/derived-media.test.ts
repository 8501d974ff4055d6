import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PLATFORMS } from '../../../contract/stickers'
import type { Logger } from '../logger'
import type { MadeMedia } from '../media/exports/make-media'
import { lottieBytes } from '../../test/fixtures/lottie'
import { closeRenderPool } from '../media/render/render-pool'
import { openTempStore, type TempStore } from '../../test/support/temp-store'
import type { FileRef, Store, WumpusRecord } from '../store/port'
import { derivedFileIds } from '../store/records'
import { createDerivedMediaService, DERIVED_MEDIA_VERSION, type DerivedMediaService } from './derived-media'
import { fileStem } from './file-names'

let temp: TempStore
let store: Store
let service: DerivedMediaService
let logged: Array<{ level: string; message: string; fields?: Record<string, unknown> }>

const logger: Logger = {
  error: (message, fields) => logged.push({ level: 'error', message, fields }),
  info: (message, fields) => logged.push({ level: 'info', message, fields }),
  debug: () => {},
}

beforeEach(async () => {
  temp = await openTempStore('wumpus-derived-')
  store = temp.store
  service = createDerivedMediaService({ store, logger })
  logged = []
})
afterEach(async () => {
  await service.close()
  await temp.close()
})
afterAll(() => closeRenderPool())

async function animation(name: string, lottie = lottieBytes()): Promise<WumpusRecord> {
  const put = async (bytes: Uint8Array, filename: string, contentType: string): Promise<FileRef> => {
    const info = await store.files.put({ bytes, filename, contentType, owner: 'maker@example.com', purpose: 'animation' })
    return { id: info.id, filename: info.filename }
  }
  return store.wumpuses.insert({
    name,
    description: 'An animation for the derived media tests',
    u_email: 'maker@example.com',
    u_name: 'Maker',
    files: {
      gif: await put(new Uint8Array([1]), 'a.gif', 'image/gif'),
      apng: await put(new Uint8Array([2]), 'a.png', 'image/apng'),
      lottie: await put(lottie, 'a.json', 'application/json'),
    },
  })
}

const exists = async (ids: string[]) => Promise.all(ids.map(async (id) => (await store.files.info(id)) !== undefined))

describe('fileStem', () => {
  it('makes a clear file name from an animation name', () => {
    expect(fileStem('Waving Wumpus')).toBe('waving-wumpus')
    expect(fileStem('  Crème brûlée!! 2 ')).toBe('creme-brulee-2')
    expect(fileStem('***')).toBe('wumpus')
    // A remix's name in another script keeps its letters (Cyrillic й keeps its breve), not a bare "wumpus".
    expect(fileStem('Бал, Μπάλα 2')).toBe('бал-μπάλα-2')
    expect(fileStem('Мой зайчик')).toBe('мой-зайчик')
  })
})

describe('derived media service', () => {
  it('backfills, once and in the background, every animation without derived media, and logs it', async () => {
    const a = await animation('First Wumpus')
    const b = await animation('Second Wumpus')
    const report = await service.backfill()
    expect(report.animations).toBe(2)
    for (const record of [a, b]) {
      const derived = (await store.wumpuses.get(record._id))!.derived!
      expect(derived).toMatchObject({ source: record.files.lottie.id, version: DERIVED_MEDIA_VERSION })
      expect(derived.exports.map((e) => [e.platform, e.file !== undefined])).toEqual(PLATFORMS.map((platform) => [platform, true]))
      // Stored through the store as derived files of the uploader, every one in use.
      for (const id of derivedFileIds(derived)) {
        expect(await store.files.info(id)).toMatchObject({ purpose: 'derived', owner: 'maker@example.com' })
        expect(await store.wumpuses.usesFile(id)).toBe(true)
      }
    }
    expect(logged.filter((l) => l.level === 'info').map((l) => l.message)).toEqual([
      'made previews and platform exports',
      'made previews and platform exports',
      'previews and platform exports are ready',
    ])
    // Nothing left to do on the next start.
    expect((await service.backfill()).animations).toBe(0)
  })

  it('replaces a set made by older rules and removes its files', async () => {
    const record = await animation('Old Rules Wumpus')
    await service.refresh(record._id)
    const first = (await store.wumpuses.get(record._id))!.derived!
    await store.wumpuses.setDerived(record._id, record.files.lottie.id, { ...first, version: DERIVED_MEDIA_VERSION - 1 })
    expect((await service.backfill()).animations).toBe(1)
    const second = (await store.wumpuses.get(record._id))!.derived!
    expect(second.version).toBe(DERIVED_MEDIA_VERSION)
    expect(await exists(derivedFileIds(first))).toEqual(derivedFileIds(first).map(() => false))
    expect(await exists(derivedFileIds(second))).toEqual(derivedFileIds(second).map(() => true))
  })

  it('keeps nothing it made for a Lottie that was replaced meanwhile', async () => {
    const record = await animation('Racing Wumpus')
    const making = service.refresh(record._id)
    const other = await store.files.put({
      bytes: lottieBytes({ op: 30 }),
      filename: 'b.json',
      contentType: 'application/json',
      purpose: 'animation',
    })
    await store.wumpuses.update(record._id, { files: { ...record.files, lottie: { id: other.id, filename: 'b.json' } } })
    await making
    const after = (await store.wumpuses.get(record._id))!
    // The set for the old Lottie was refused and its files removed; the new Lottie's set comes from filesChanged.
    expect(after.derived).toBeUndefined()
    const derivedFiles = (await store.files.list({ createdBefore: new Date(Date.now() + 60_000), limit: 1000 })).filter(
      (f) => f.purpose === 'derived',
    )
    expect(derivedFiles).toEqual([])
    await service.filesChanged(record, after)
    await service.idle()
    expect((await store.wumpuses.get(record._id))!.derived?.source).toBe(other.id)
  })

  it('records why nothing could be made, offers no files, and tries again after 1 min, 10 min, 1 h, then every day', async () => {
    let clock = Date.now()
    await service.close()
    service = createDerivedMediaService({ store, logger, now: () => new Date(clock) })
    // 1999 frames at 30 fps: the inspector takes it, but a 20 fps preview would need 1333 frames, over the renderer's limit.
    const record = await animation('Endless Wumpus', lottieBytes({ op: 1999 }))
    await service.refresh(record._id)
    const derived = (await store.wumpuses.get(record._id))!.derived!
    expect(derived.error).toMatch(/too long/)
    expect(derived.previews).toBeUndefined()
    expect(derived.exports.every((e) => !e.file && /Could not be made/.test(e.notes[0]!))).toBe(true)
    expect(logged.some((l) => l.level === 'error' && /could not be rendered/.test(l.message))).toBe(true)
    // Not at the next start, nor when asked again, before its time.
    expect((await service.backfill()).animations).toBe(0)
    await service.refresh(record._id)
    expect((await store.wumpuses.get(record._id))!.derived!.madeAt).toEqual(derived.madeAt)
    for (const delay of [60_000, 600_000, 3600_000, 86_400_000, 86_400_000]) {
      clock += delay - 1
      expect((await service.backfill()).animations).toBe(0)
      clock += 1
      expect((await service.backfill()).animations).toBe(1)
    }
    expect((await store.wumpuses.get(record._id))!.derived!.error).toMatch(/too long/)
  })

  it('removes every derived file of a deleted animation', async () => {
    const record = await animation('Gone Wumpus')
    await service.refresh(record._id)
    const derived = (await store.wumpuses.get(record._id))!
    await store.wumpuses.delete(record._id)
    await service.removed(derived)
    expect((await exists(derivedFileIds(derived.derived))).some(Boolean)).toBe(false)
  })

  it('keeps the new set when removing the replaced files fails', async () => {
    const record = await animation('Rerendered Wumpus')
    const tiny = {
      bytes: new Uint8Array([1, 2, 3]),
      facts: { contentType: 'image/webp', bytes: 3, width: 1, height: 1, frames: 1, durationMs: 0 },
    }
    const derive = async (): Promise<MadeMedia> => ({
      previews: { small: tiny, large: tiny, still: tiny },
      exports: [],
      timings: {} as MadeMedia['timings'],
    })
    const first = createDerivedMediaService({ store, logger, derive })
    await first.refresh(record._id)
    await first.close()
    // Made by older rules: the next start makes them again.
    const old = (await store.wumpuses.get(record._id))!.derived!
    await store.wumpuses.setDerived(record._id, record.files.lottie.id, { ...old, version: DERIVED_MEDIA_VERSION - 1 })
    // The disk refuses to remove files (EIO) while the new set is settled.
    const files = new Proxy(store.files, {
      get: (target, key) =>
        key === 'delete'
          ? () => Promise.reject(new Error('EIO: i/o error, unlink'))
          : (Reflect.get(target, key) as (...args: unknown[]) => unknown).bind(target),
    })
    const failing = new Proxy(store, { get: (target, key) => (key === 'files' ? files : Reflect.get(target, key)) })
    const second = createDerivedMediaService({ store: failing, logger, derive })
    await second.refresh(record._id)
    await second.close()
    const now = (await store.wumpuses.get(record._id))!.derived!
    expect(now.version).toBe(DERIVED_MEDIA_VERSION)
    expect(await exists(derivedFileIds(now))).toEqual(derivedFileIds(now).map(() => true))
    expect(logged).toContainEqual(expect.objectContaining({ level: 'error', message: 'removing replaced derived files failed' }))
  })

  it('gives the derive step a remix’s outlined edit when its recipe leaves the outline to each app', async () => {
    const original = await animation('Original Wumpus')
    const seen = new Map<string, unknown>()
    const tiny = {
      bytes: new Uint8Array([1, 2, 3]),
      facts: { contentType: 'image/webp', bytes: 3, width: 1, height: 1, frames: 1, durationMs: 0 },
    }
    const derive = async (lottie: object, options?: { outlined?: unknown }): Promise<MadeMedia> => {
      seen.set((lottie as { nm: string }).nm, options?.outlined)
      return { previews: { small: tiny, large: tiny, still: tiny }, exports: [], timings: {} as MadeMedia['timings'] }
    }
    const remixOf = async (nm: string, recipe: { outline?: boolean }) => {
      const made = await animation('Remix', lottieBytes({ nm }))
      await store.wumpuses.delete(made._id)
      const remix = await store.wumpuses.insertRemix(
        { ...made, remix: { of: original._id, recipe, source: original.files.lottie.id, visibility: 'private' } },
        { max: 10 },
      )
      return remix === 'full' ? undefined : remix
    }
    const open = (await remixOf('open', {}))!
    const off = (await remixOf('off', { outline: false }))!
    const made = createDerivedMediaService({ store, logger, derive })
    for (const record of [original, open, off]) await made.refresh(record._id)
    await made.close()
    const outlined = seen.get('open') as { layers: unknown[] }
    // The original's Lottie (one layer) drawn once more underneath, in white.
    expect(outlined.layers.length).toBeGreaterThan(1)
    expect(seen.get('off')).toBeUndefined()
    expect(seen.get('bounce')).toBeUndefined()
  })
  it('copies the files of an animation made from the same bytes instead of rendering them again, never from someone else’s private remix', async () => {
    const calls: string[] = []
    const derive = async (lottie: object): Promise<MadeMedia> => {
      calls.push((lottie as { nm: string }).nm)
      const file = {
        bytes: new Uint8Array([calls.length, 7, 7]),
        facts: { contentType: 'image/webp', bytes: 3, width: 1, height: 1, frames: 1, durationMs: 0 },
      }
      return {
        previews: { small: file, large: file, still: file },
        exports: [{ platform: 'discord', file: { ...file, facts: { ...file.facts, contentType: 'image/png' } }, notes: ['a note'] }],
        timings: {} as MadeMedia['timings'],
      } as MadeMedia
    }
    const made = createDerivedMediaService({ store, logger, derive })
    const first = await animation('First Twin', lottieBytes({ nm: 'twin' }))
    const second = await animation('Second Twin', lottieBytes({ nm: 'twin' }))
    await made.refresh(first._id)
    await made.refresh(second._id)
    expect(calls).toEqual(['twin'])
    const a = (await store.wumpuses.get(first._id))!.derived!
    const b = (await store.wumpuses.get(second._id))!.derived!
    expect(b.exports).toEqual([
      { platform: 'discord', notes: ['a note'], file: expect.objectContaining({ contentType: 'image/png', bytes: 3 }) },
    ])
    expect(b.exports[0]!.file!.filename).toBe('second-twin.discord.png')
    // Copies of their own: the first's files can go without taking the second's.
    expect(derivedFileIds(b).some((id) => derivedFileIds(a).includes(id))).toBe(false)
    for (const [i, id] of derivedFileIds(a).entries()) {
      expect((await store.files.read(derivedFileIds(b)[i]!))!.bytes).toEqual((await store.files.read(id))!.bytes)
    }

    // Someone else's private remix with those bytes is rendered for, not copied from.
    const secret = await animation('Secret', lottieBytes({ nm: 'secret' }))
    await store.wumpuses.delete(secret._id)
    const remix = await store.wumpuses.insertRemix(
      {
        ...secret,
        u_email: 'someone-else@example.com',
        remix: { of: first._id, recipe: { outline: false }, source: first.files.lottie.id, visibility: 'private' },
      },
      { max: 10 },
    )
    await made.refresh((remix as WumpusRecord)._id)
    const mine = await animation('Mine', lottieBytes({ nm: 'secret' }))
    await made.refresh(mine._id)
    expect(calls).toEqual(['twin', 'secret', 'secret'])
    await made.close()
  })
})
