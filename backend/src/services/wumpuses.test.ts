import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { loadConfig } from '../config'
import { DomainError } from '../domain/errors'
import { createLogger } from '../logger'
import { buildGif } from '../../test/fixtures/gif'
import { lottie, lottieBytes, utf8 } from '../../test/fixtures/lottie'
import { COLOUR_SLOTS_VERSION } from '../../../contract/remix/colours'
import { buildApng } from '../../test/fixtures/png'
import { closeRenderPool } from '../media/render/render-pool'
import { openTempStore, type TempStore } from '../../test/support/temp-store'
import type { Store } from '../store/port'
import { createAnimationFileService, type AnimationFileService } from './animation-files'
import { createAuditLog } from './audit'
import { createColourSlotService, type ColourSlotService } from './colour-slots'
import { createDerivedMediaService, type DerivedMediaService } from './derived-media'
import { createRemixService } from './remixes'
import { createWumpusService, type SentFile, type SpendLimit, type WumpusService } from './wumpuses'
import { findWumpus } from './find-wumpus'
import { gunzipSync } from 'node:zlib'
import { pickMediaFacts } from '../../../contract/media-facts'
import { lottieAuthor } from '../media/encode/lottie-meta'
import { exportForPlatform } from '../media/exports/platform-exports'

const ADMIN = 'admin@example.com'
const MAKER = 'maker@example.com'
const STRANGER = 'stranger@example.com'

let temp: TempStore
let store: Store
let derivedMedia: DerivedMediaService
let colourSlots: ColourSlotService
let wumpuses: WumpusService
let animationFiles: AnimationFileService
let spent: string[]

beforeEach(async () => {
  temp = await openTempStore('wumpus-publish-')
  store = temp.store
  const logger = createLogger('silent')
  derivedMedia = createDerivedMediaService({ store, logger, enabled: false })
  const base = { store, config: loadConfig({ DATA_DIR: temp.dataDir, LOG_LEVEL: 'silent', MAX_GIF_BYTES: '60000' }), logger }
  colourSlots = createColourSlotService({ store, logger })
  const remixes = createRemixService({ ...base, derivedMedia, colourSlots })
  wumpuses = createWumpusService({ ...base, audit: createAuditLog(store, logger), derivedMedia, colourSlots, remixes })
  animationFiles = createAnimationFileService(base)
  await store.users.upsert(ADMIN, { user_name: 'Admin Person', role: 'admin' })
  await store.users.upsert(MAKER, { user_name: 'Maker Person' })
  spent = []
})
afterEach(async () => {
  await derivedMedia.close()
  await colourSlots.close()
  await temp.close()
})
afterAll(() => closeRenderPool())

const spend: SpendLimit = async (name) => void spent.push(name)
const fields = { name: 'Waving Wumpus', description: 'A wumpus that waves at you' }
const sent = (): SentFile[] => [
  { format: 'gif', bytes: buildGif(), name: 'wave.gif' },
  { format: 'apng', bytes: buildApng(), name: 'wave.png' },
  { format: 'lottie', bytes: lottieBytes(), name: 'wave.json' },
]
const storedFiles = async () =>
  (await store.files.list({ createdBefore: new Date(Date.now() + 60_000), limit: 1000 })).map((f) => f.id).sort()
const auditActions = async () => (await store.audit.list({ limit: 100 })).items.map((entry) => `${entry.action} by ${entry.actor}`)

async function refusal(run: Promise<unknown>): Promise<DomainError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(DomainError)
  return error as DomainError
}

/** Three files uploaded one by one by `owner`, as the admin form does before publishing. */
async function uploads(owner: string) {
  const [gif, apng, lottie] = await Promise.all(sent().map((file) => animationFiles.upload(owner, file)))
  return { gif: gif!.file.id, apng: apng!.file.id, lottie: lottie!.file.id }
}

describe('publishing', () => {
  it('stores the sent files under the publisher, makes the record with their stored name, and logs it', async () => {
    const record = await wumpuses.publish({ email: ADMIN, name: 'session name' }, fields, { sent: sent() }, spend)
    expect(record).toMatchObject({ name: 'Waving Wumpus', u_email: ADMIN, u_name: 'Admin Person' })
    for (const ref of Object.values(record.files))
      expect(await store.files.info(ref.id)).toMatchObject({ owner: ADMIN, purpose: 'animation' })
    expect(record.files.gif.filename).toBe('wave.gif')
    expect(await auditActions()).toEqual([`wumpus.publish by ${ADMIN}`])
    expect(spent).toEqual([])
  })

  it('renders the GIF and APNG from a sent Lottie, counting the render against the publisher', async () => {
    const record = await wumpuses.publish({ email: ADMIN, name: 'Admin' }, fields, { sent: [sent()[2]!] }, spend)
    expect(spent).toEqual(['render'])
    expect((await store.files.info(record.files.gif.id))?.contentType).toBe('image/gif')
    expect((await store.files.info(record.files.apng.id))?.contentType).toBe('image/apng')
    expect(await storedFiles()).toEqual(
      Object.values(record.files)
        .map((ref) => ref.id)
        .sort(),
    )
  })

  it('removes every file it stored when the publish fails after storing them', async () => {
    const overLimit = new Error('Too many lottieLinks')
    const refused: SpendLimit = async () => {
      throw overLimit
    }
    const failed = wumpuses.publish({ email: ADMIN, name: 'Admin' }, fields, { sent: [sent()[0]!, sent()[2]!] }, refused)
    await expect(failed).rejects.toBe(overLimit)
    expect(await storedFiles()).toEqual([])
    expect(await store.wumpuses.count()).toBe(0)
    expect(await auditActions()).toEqual([])
  })

  it('stores nothing when one sent file is refused by its bytes or its size', async () => {
    const broken = [sent()[0]!, { format: 'apng' as const, bytes: buildGif(), name: 'not-a.png' }, sent()[2]!]
    expect((await refusal(wumpuses.publish({ email: ADMIN, name: 'Admin' }, fields, { sent: broken }, spend))).kind).toBe('wrong-type')
    const big = [{ format: 'gif' as const, bytes: new Uint8Array(60_001), name: 'big.gif' }, sent()[2]!]
    expect((await refusal(wumpuses.publish({ email: ADMIN, name: 'Admin' }, fields, { sent: big }, spend))).kind).toBe('too-large')
    expect(await storedFiles()).toEqual([])
  })

  it('asks for the Lottie when none is sent', async () => {
    const error = await refusal(wumpuses.publish({ email: ADMIN, name: 'Admin' }, fields, { sent: sent().slice(0, 2) }, spend))
    expect(error).toMatchObject({ kind: 'invalid', details: [{ path: 'lottie', message: 'Enter lottie json link' }] })
    expect(await storedFiles()).toEqual([])
  })

  it('reads the colour slots of the Lottie in the render worker and stores them with the record', async () => {
    const record = await wumpuses.publish({ email: ADMIN, name: 'Admin' }, fields, { sent: sent() }, spend)
    await colourSlots.idle()
    expect((await findWumpus(store, record._id)).colourSlots).toEqual({
      source: record.files.lottie.id,
      version: COLOUR_SLOTS_VERSION,
      // The fixture is one ball filled with rgb(0.35, 0.4, 0.95).
      slots: [{ id: '5966f2', colour: '#5966f2', share: 1 }],
    })
  })

  it('takes uploaded files only from their uploader, of the right format, and not already in an animation', async () => {
    const mine = await uploads(ADMIN)
    const theirs = await uploads(MAKER)
    const publish = (ids: typeof mine) => wumpuses.publish({ email: ADMIN, name: 'Admin' }, fields, { ids }, spend)
    expect((await refusal(publish({ ...mine, gif: theirs.gif }))).kind).toBe('forbidden')
    expect((await refusal(publish({ ...mine, gif: mine.apng }))).kind).toBe('wrong-type')
    expect((await refusal(publish({ ...mine, gif: 'f'.repeat(24) }))).kind).toBe('not-found')
    const published = await publish(mine)
    expect((await refusal(publish(mine))).kind).toBe('conflict')
    // A refused publish by id removes nothing: the files stay the uploader's to use. (The published Lottie is
    // the uploaded one stored again with its maker in meta.a, services/lottie-credit.ts: the upload went.)
    expect(published.files.lottie.id).not.toBe(mine.lottie)
    expect(await storedFiles()).toEqual([mine.gif, mine.apng, published.files.lottie.id, ...Object.values(theirs)].sort())
  })
})

describe('the maker in the stored Lottie', () => {
  const authorOf = async (id: string) => {
    const file = await store.files.read(id)
    return (JSON.parse(new TextDecoder().decode(file!.bytes)) as { meta?: { a?: string } }).meta?.a
  }

  it('names the credited maker, else the contributor, in meta.a of the Lottie it publishes, sent or uploaded', async () => {
    const sentOne = await wumpuses.publish({ email: MAKER, name: 'Maker' }, { ...fields, credit: 'Ana Lima' }, { sent: sent() }, spend)
    expect(await authorOf(sentOne.files.lottie.id)).toBe('Ana Lima')
    const uploaded = await uploads(MAKER)
    const byId = await wumpuses.publish({ email: MAKER, name: 'Maker' }, fields, { ids: uploaded }, spend)
    expect(await authorOf(byId.files.lottie.id)).toBe('Maker Person')
    // Nothing left behind: the upload it replaced is gone.
    expect(await store.files.info(uploaded.lottie)).toBeUndefined()
  })

  it('names the maker in a Lottie an edit brings, with the credit the edit gives', async () => {
    const record = await wumpuses.publish({ email: MAKER, name: 'Maker' }, fields, { ids: await uploads(MAKER) }, spend)
    const newLottie = (await animationFiles.upload(MAKER, sent()[2]!)).file.id
    const edited = await wumpuses.edit(MAKER, record, { files: { lottie: newLottie }, credit: 'Bo Chen' })
    expect(await authorOf(edited.files.lottie.id)).toBe('Bo Chen')
    expect(await store.files.info(newLottie)).toBeUndefined()
    expect(await storedFiles()).toEqual([record.files.gif.id, record.files.apng.id, edited.files.lottie.id].sort())
  })
})

describe('editing', () => {
  it('lets the uploader and admins edit, refuses others, and answers 404 before 403', async () => {
    const record = await wumpuses.publish({ email: MAKER, name: 'Maker' }, fields, { ids: await uploads(MAKER) }, spend)
    expect((await wumpuses.editable(MAKER, record._id))._id).toBe(record._id)
    expect((await wumpuses.editable(ADMIN, record._id))._id).toBe(record._id)
    expect((await refusal(wumpuses.editable(STRANGER, record._id))).kind).toBe('forbidden')
    expect((await refusal(wumpuses.editable(STRANGER, 'f'.repeat(24)))).kind).toBe('not-found')
    expect((await refusal(wumpuses.editable(MAKER, undefined))).kind).toBe('not-found')
  })

  it('removes the file an edit replaced, keeps the others, and logs only real changes', async () => {
    const record = await wumpuses.publish({ email: MAKER, name: 'Maker' }, fields, { ids: await uploads(MAKER) }, spend)
    const newGif = (await animationFiles.upload(MAKER, sent()[0]!)).file.id
    const updated = await wumpuses.edit(MAKER, record, { files: { gif: newGif }, name: 'Waving Wumpus 2' })
    expect(updated).toMatchObject({
      name: 'Waving Wumpus 2',
      files: { gif: { id: newGif }, apng: record.files.apng, lottie: record.files.lottie },
    })
    expect(await store.files.info(record.files.gif.id)).toBeUndefined()
    expect(await storedFiles()).toEqual([newGif, record.files.apng.id, record.files.lottie.id].sort())

    await wumpuses.edit(MAKER, updated, { name: 'Waving Wumpus 2' })
    expect(await auditActions()).toEqual([`wumpus.edit by ${MAKER}`, `wumpus.publish by ${MAKER}`])
  })

  it('reads the colour slots of a new Lottie, and keeps them when the Lottie stays', async () => {
    const record = await wumpuses.publish({ email: MAKER, name: 'Maker' }, fields, { ids: await uploads(MAKER) }, spend)
    await colourSlots.idle()
    const renamed = await wumpuses.edit(MAKER, record, { name: 'Renamed Wumpus' })
    await colourSlots.idle()
    expect((await findWumpus(store, record._id)).colourSlots).toEqual(renamed.colourSlots)
    const red = utf8(JSON.stringify(lottie()).replace('[0.35,0.4,0.95,1]', '[1,0,0,1]'))
    const newLottie = (await animationFiles.upload(MAKER, { format: 'lottie', bytes: red, name: 'red.json' })).file.id
    const edited = await wumpuses.edit(MAKER, renamed, { files: { lottie: newLottie } })
    await colourSlots.idle()
    // The new Lottie as stored names its maker (services/lottie-credit.ts): stored again under another id.
    expect(edited.files.lottie.id).not.toBe(newLottie)
    expect((await findWumpus(store, record._id)).colourSlots).toEqual({
      source: edited.files.lottie.id,
      version: COLOUR_SLOTS_VERSION,
      slots: [{ id: 'ff0000', colour: '#ff0000', share: 1 }],
    })
  })

  it('rewrites the Lottie and its Telegram files when only the credit changes, without a render, keeping the other files', async () => {
    const record = await wumpuses.publish({ email: MAKER, name: 'Maker' }, fields, { ids: await uploads(MAKER) }, spend)
    await colourSlots.idle()
    // Derived media as the render would leave them: the Telegram .tgs made from the stored Lottie, a preview beside it.
    const parsed = JSON.parse(new TextDecoder().decode((await store.files.read(record.files.lottie.id))!.bytes)) as unknown
    const tgs = (await exportForPlatform('telegram', parsed)).file!
    const put = (bytes: Uint8Array, contentType: string, filename: string) =>
      store.files.put({ bytes, contentType, filename, owner: MAKER, purpose: 'derived' })
    const tgsFile = await put(tgs.bytes, tgs.facts.contentType, 'waving.tgs')
    const still = await put(buildApng(), 'image/png', 'waving.still.png')
    const facts = { contentType: 'image/png', bytes: 10, width: 512, height: 512, frames: 1, durationMs: 0 }
    const stillRef = { id: still.id, filename: still.filename, ...facts }
    const withDerived = (await store.wumpuses.setDerived(record._id, record.files.lottie.id, {
      source: record.files.lottie.id,
      version: 3,
      madeAt: new Date(),
      previews: { small: stillRef, large: stillRef, still: stillRef },
      exports: [
        { platform: 'telegram', file: { id: tgsFile.id, filename: tgsFile.filename, ...pickMediaFacts(tgs.facts) }, notes: [] },
        { platform: 'slack', notes: ['Not made'] },
      ],
    }))!
    const before = await findWumpus(store, record._id)
    expect(lottieAuthor(JSON.parse(new TextDecoder().decode((await store.files.read(record.files.lottie.id))!.bytes)))).toBe('Maker Person')

    const edited = await wumpuses.edit(ADMIN, withDerived, { credit: 'Ana Lima' })
    expect(edited.credit).toBe('Ana Lima')
    const lottieRead = JSON.parse(new TextDecoder().decode((await store.files.read(edited.files.lottie.id))!.bytes)) as unknown
    expect(lottieAuthor(lottieRead)).toBe('Ana Lima')
    const telegram = edited.derived!.exports.find((e) => e.platform === 'telegram')!.file!
    expect(lottieAuthor(JSON.parse(gunzipSync((await store.files.read(telegram.id))!.bytes).toString('utf8')))).toBe('Ana Lima')
    // The derived media follow the new Lottie (nothing to render), the rest as it was; the replaced files are gone.
    expect(edited.derived).toMatchObject({ source: edited.files.lottie.id, previews: withDerived.derived!.previews })
    expect(edited.derived!.exports[1]).toEqual(withDerived.derived!.exports[1])
    expect(edited.files).toMatchObject({ gif: record.files.gif, apng: record.files.apng })
    expect(edited.colourSlots).toEqual({ ...before.colourSlots, source: edited.files.lottie.id })
    expect(await storedFiles()).toEqual([record.files.gif.id, record.files.apng.id, edited.files.lottie.id, telegram.id, still.id].sort())
    expect(await findWumpus(store, record._id)).toEqual(edited)
    expect(await auditActions()).toEqual([`wumpus.edit by ${ADMIN}`, `wumpus.publish by ${MAKER}`])

    // Back to no credit: the contributor is named again.
    const cleared = await wumpuses.edit(ADMIN, edited, { credit: '', name: 'Waving again' })
    expect(cleared).toMatchObject({ credit: '', name: 'Waving again' })
    expect(lottieAuthor(JSON.parse(new TextDecoder().decode((await store.files.read(cleared.files.lottie.id))!.bytes)))).toBe(
      'Maker Person',
    )
  })

  it('writes a new maker and the edit’s other fields in one store write', async () => {
    const record = await wumpuses.publish({ email: MAKER, name: 'Maker' }, fields, { ids: await uploads(MAKER) }, spend)
    const update = vi.spyOn(store.wumpuses, 'update')
    const setCredit = vi.spyOn(store.wumpuses, 'setCredit')
    try {
      const edited = await wumpuses.edit(ADMIN, record, { credit: 'Ana Lima', name: 'Waving anew', tags: ['hello'], licence: 'CC-BY-4.0' })
      expect(edited).toMatchObject({ credit: 'Ana Lima', name: 'Waving anew', tags: ['hello'], licence: 'CC-BY-4.0' })
      expect(lottieAuthor(JSON.parse(new TextDecoder().decode((await store.files.read(edited.files.lottie.id))!.bytes)))).toBe('Ana Lima')
      expect(setCredit).toHaveBeenCalledTimes(1)
      expect(update).not.toHaveBeenCalled()
      expect(await findWumpus(store, record._id)).toEqual(edited)
      expect(await auditActions()).toEqual([`wumpus.edit by ${ADMIN}`, `wumpus.publish by ${MAKER}`])
    } finally {
      vi.restoreAllMocks()
    }
  })

  it('keeps every file of the record and orphans none when two edits that replace files cross', async () => {
    const record = await wumpuses.publish({ email: MAKER, name: 'Maker' }, fields, { ids: await uploads(MAKER) }, spend)
    const upload = async (format: 0 | 1) => (await animationFiles.upload(ADMIN, sent()[format]!)).file.id
    // Both admins opened the animation before either saved: each edit starts from the same record.
    const [gif, apng, gif2, gif3] = [await upload(0), await upload(1), await upload(0), await upload(0)]
    await wumpuses.edit(ADMIN, record, { files: { gif } })
    await wumpuses.edit(ADMIN, record, { files: { apng } })
    let stored = await findWumpus(store, record._id)
    expect(stored.files).toMatchObject({ gif: { id: gif }, apng: { id: apng }, lottie: record.files.lottie })
    expect(await storedFiles()).toEqual([gif, apng, gif2, gif3, record.files.lottie.id].sort())

    // Two replacements of the same file at once: the last one stays, the other is removed with the old one.
    await Promise.all([wumpuses.edit(ADMIN, stored, { files: { gif: gif2 } }), wumpuses.edit(ADMIN, stored, { files: { gif: gif3 } })])
    stored = await findWumpus(store, record._id)
    expect([gif2, gif3]).toContain(stored.files.gif.id)
    expect(await storedFiles()).toEqual(
      Object.values(stored.files)
        .map((ref) => ref.id)
        .sort(),
    )
  })

  it('refuses a replacement file the editor did not upload, changing nothing', async () => {
    const record = await wumpuses.publish({ email: MAKER, name: 'Maker' }, fields, { ids: await uploads(MAKER) }, spend)
    const adminsGif = (await animationFiles.upload(ADMIN, sent()[0]!)).file.id
    expect((await refusal(wumpuses.edit(MAKER, record, { files: { gif: adminsGif } }))).kind).toBe('forbidden')
    expect(await findWumpus(store, record._id)).toMatchObject({ files: record.files })
    expect(await store.files.info(record.files.gif.id)).toBeDefined()
  })
})

describe('deleting', () => {
  it('removes the animation with its three files and logs it; a second delete finds nothing', async () => {
    const record = await wumpuses.publish({ email: MAKER, name: 'Maker' }, fields, { ids: await uploads(MAKER) }, spend)
    expect(await wumpuses.delete(ADMIN, record._id)).toBe(1)
    expect(await storedFiles()).toEqual([])
    expect((await refusal(findWumpus(store, record._id))).kind).toBe('not-found')
    expect(await wumpuses.delete(ADMIN, record._id)).toBe(0)
    expect(await wumpuses.delete(ADMIN, undefined)).toBe(0)
    expect(await auditActions()).toEqual([`wumpus.delete by ${ADMIN}`, `wumpus.publish by ${MAKER}`])
  })
})
