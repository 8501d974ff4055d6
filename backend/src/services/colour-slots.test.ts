import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { colourSlots as colourSlotsOnThisThread, COLOUR_SLOTS_VERSION } from '../../../contract/remix/colours'
import { loadConfig } from '../config'
import { DomainError } from '../domain/errors'
import { createLogger, type Logger } from '../logger'
import { closeRenderPool, readColourSlots } from '../media/render/render-pool'
import { lottie, lottieBytes, utf8 } from '../../test/fixtures/lottie'
import { addRemix, addWumpus } from '../../test/support/test-server'
import { openTempStore, type TempStore } from '../../test/support/temp-store'
import type { FileRef, Store, WumpusRecord } from '../store/port'
import { createColourSlotService, type ColourSlotService } from './colour-slots'
import { createDerivedMediaService, type DerivedMediaService } from './derived-media'
import { createRemixService, type RemixService } from './remixes'

// The slots are read in the render worker: the main thread's colourSlots (this module's) is never called.
vi.mock('../../../contract/remix/colours', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../contract/remix/colours')>()
  return { ...actual, colourSlots: vi.fn(actual.colourSlots) }
})

/** The fixture is one ball filled with rgb(0.35, 0.4, 0.95). */
const BALL_SLOTS = [{ id: '5966f2', colour: '#5966f2', share: 1 }]

let temp: TempStore
let store: Store
let errors: string[]
let read: ReturnType<typeof vi.fn<typeof readColourSlots>>
let colourSlots: ColourSlotService
let derivedMedia: DerivedMediaService
let remixes: RemixService

beforeEach(async () => {
  temp = await openTempStore('wumpus-colour-slots-')
  store = temp.store
  errors = []
  const logger: Logger = { ...createLogger('silent'), error: (message, fields) => void errors.push(`${message}: ${String(fields?.error)}`) }
  read = vi.fn(readColourSlots)
  colourSlots = createColourSlotService({ store, logger, read })
  derivedMedia = createDerivedMediaService({ store, logger, enabled: false })
  const config = loadConfig({ DATA_DIR: temp.dataDir, LOG_LEVEL: 'silent' })
  remixes = createRemixService({ store, config, logger, derivedMedia, colourSlots })
  vi.mocked(colourSlotsOnThisThread).mockClear()
})
afterEach(async () => {
  expect(colourSlotsOnThisThread).not.toHaveBeenCalled()
  await colourSlots.close()
  await derivedMedia.close()
  await temp.close()
})
afterAll(() => closeRenderPool())

/** A stored Lottie file of `bytes` (the ball by default). */
async function lottieFile(bytes: Uint8Array = lottieBytes()): Promise<FileRef> {
  const file = await store.files.put({ bytes, contentType: 'application/json', filename: 'ball.json', purpose: 'animation' })
  return { id: file.id, filename: file.filename }
}

/** An original whose Lottie is `bytes`, stored like one from before slots were kept: without them. */
async function original(bytes?: Uint8Array): Promise<WumpusRecord> {
  const record = await addWumpus(store)
  await store.files.delete(record.files.lottie.id)
  return (await store.wumpuses.update(record._id, { files: { ...record.files, lottie: await lottieFile(bytes) } }))!
}

const reread = async (record: WumpusRecord) => (await store.wumpuses.get(record._id))!

describe('colour slots asked for', () => {
  it('are read in the render worker once, stored, and then answered from the store', async () => {
    const record = await original()
    expect(await colourSlots.of(record)).toEqual(BALL_SLOTS)
    expect(read).toHaveBeenCalledTimes(1)
    const stored = await reread(record)
    expect(stored.colourSlots).toEqual({ source: record.files.lottie.id, version: COLOUR_SLOTS_VERSION, slots: BALL_SLOTS })
    expect(await colourSlots.of(stored)).toEqual(BALL_SLOTS)
    expect(read).toHaveBeenCalledTimes(1)
  })

  it('share one read when asked for at once', async () => {
    const record = await original()
    expect(await Promise.all([colourSlots.of(record), colourSlots.of(record), colourSlots.of(record)])).toEqual([
      BALL_SLOTS,
      BALL_SLOTS,
      BALL_SLOTS,
    ])
    expect(read).toHaveBeenCalledTimes(1)
  })

  it('are read again when stored for another Lottie or by older rules', async () => {
    const record = await original()
    const stale = {
      source: record.files.lottie.id,
      version: COLOUR_SLOTS_VERSION - 1,
      slots: [{ id: '000000', colour: '#000000', share: 1 }],
    }
    await store.wumpuses.setColourSlots(record._id, stale)
    expect(await colourSlots.of(await reread(record))).toEqual(BALL_SLOTS)
    expect(read).toHaveBeenCalledTimes(1)
    const red = await lottieFile(utf8(JSON.stringify(lottie()).replace('[0.35,0.4,0.95,1]', '[1,0,0,1]')))
    const moved = (await store.wumpuses.update(record._id, { files: { ...record.files, lottie: red } }))!
    expect(moved.colourSlots?.source).toBe(record.files.lottie.id)
    expect(await colourSlots.of(moved)).toEqual([{ id: 'ff0000', colour: '#ff0000', share: 1 }])
    expect(read).toHaveBeenCalledTimes(2)
  })

  it('are none for a stored file that is not a Lottie, and NOT_FOUND when the file is gone', async () => {
    const broken = await original(utf8('not json'))
    expect(await colourSlots.of(broken)).toEqual([])
    expect((await reread(broken)).colourSlots?.slots).toEqual([])
    const gone = await original()
    await store.files.delete(gone.files.lottie.id)
    const error = await colourSlots.of(gone).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DomainError)
    expect((error as DomainError).kind).toBe('not-found')
  })
})

describe('colour slots read in the background', () => {
  it('are stored after a refresh of an original, never for a remix, and a failure is logged, not thrown', async () => {
    const record = await original()
    await colourSlots.refresh(record)
    expect((await reread(record)).colourSlots?.slots).toEqual(BALL_SLOTS)
    await colourSlots.refresh(await reread(record))
    expect(read).toHaveBeenCalledTimes(1)

    const remix = await addRemix(store, 'owner@example.com', 'private')
    await colourSlots.refresh(remix)
    expect((await reread(remix)).colourSlots).toBeUndefined()
    expect(read).toHaveBeenCalledTimes(1)

    const gone = await original()
    await store.files.delete(gone.files.lottie.id)
    await expect(colourSlots.refresh(gone)).resolves.toBeUndefined()
    expect(errors).toEqual(['reading colour slots failed: DomainError: The animation’s Lottie file is missing'])
  })

  it('are read at start for every original stored without them, once', async () => {
    const old = [await original(), await original(), await original()]
    const known = await original()
    await store.wumpuses.setColourSlots(known._id, { source: known.files.lottie.id, version: COLOUR_SLOTS_VERSION, slots: BALL_SLOTS })
    // A remix, and its original (whose placeholder Lottie `{}` has no colours).
    const remix = await addRemix(store, 'owner@example.com', 'link')
    expect(await colourSlots.backfill()).toEqual({ animations: 4 })
    expect(read).toHaveBeenCalledTimes(4)
    for (const record of old) expect((await reread(record)).colourSlots?.slots).toEqual(BALL_SLOTS)
    expect((await store.wumpuses.get(remix.remix!.of))!.colourSlots?.slots).toEqual([])
    expect((await reread(remix)).colourSlots).toBeUndefined()
    expect(await colourSlots.backfill()).toEqual({ animations: 0 })
    expect(read).toHaveBeenCalledTimes(4)
  })
})

describe('colour choices of the remix service', () => {
  const owner = { email: 'owner@example.com', role: 'user' as const, name: 'Owner' }

  it('are the stored slots with their presets, and refused for a remix', async () => {
    const record = await original()
    const choices = await remixes.colourChoices(record)
    expect(choices.slots).toEqual(BALL_SLOTS)
    expect(choices.presets.map((preset) => [preset.id, Object.keys(preset.colours)])).toEqual([
      ['night', ['5966f2']],
      ['pastel', ['5966f2']],
      ['mono', ['5966f2']],
    ])
    expect((await reread(record)).colourSlots?.slots).toEqual(BALL_SLOTS)
    const remix = await addRemix(store, owner.email, 'link')
    await expect(remixes.colourChoices(remix)).rejects.toMatchObject({ kind: 'conflict', details: { reason: 'remix-of-remix' } })
    expect(read).toHaveBeenCalledTimes(1)
  })

  it('name the slots a new remix may recolour: those stored for the original', async () => {
    const record = await original()
    const stored = { source: record.files.lottie.id, version: COLOUR_SLOTS_VERSION, slots: [{ id: 'abcdef', colour: '#abcdef', share: 1 }] }
    await store.wumpuses.setColourSlots(record._id, stored)
    const refused = await remixes.create(owner, record._id, { colours: { '5966f2': '#e0457b' } }).catch((e: unknown) => e)
    expect(refused).toMatchObject({ kind: 'invalid', details: { reason: 'unknown-colour-slot', unknown: ['5966f2'] } })
    expect(read).not.toHaveBeenCalled()
  })
})
