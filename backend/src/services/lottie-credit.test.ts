import { randomBytes } from 'node:crypto'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { pickMediaFacts } from '../../../contract/media-facts'
import { createLogger } from '../logger'
import { lottieAuthor } from '../media/encode/lottie-meta'
import { exportForPlatform } from '../media/exports/platform-exports'
import { openMongoStore } from '../store/mongo/open-mongo-store'
import type { Store, WumpusRecord } from '../store/port'
import { lottie } from '../../test/fixtures/lottie'
import { startMongoWireServer } from '../../test/support/mongo-wire-server'
import { openTempStore } from '../../test/support/temp-store'
import { createCreditBackfill, needsMaker } from './lottie-credit'

const STORES: Array<[string, () => Promise<{ store: Store; close: () => Promise<void> }>]> = [
  ['SQLite', () => openTempStore('wumpus-credit-')],
  [
    'MongoDB',
    async () => {
      const wire = await startMongoWireServer()
      const store = await openMongoStore({ uri: wire.uri, dbName: `wumpus_credit_${randomBytes(4).toString('hex')}` })
      return {
        store,
        close: async () => {
          await store.close()
          await wire.close()
        },
      }
    },
  ],
]

const MAKER = 'maker@example.com'
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))
const parse = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)) as unknown

describe.each(STORES)('Back-filling makers into older Lotties on %s', (_, open) => {
  let temp: { store: Store; close: () => Promise<void> }
  let store: Store

  beforeAll(async () => {
    temp = await open()
    store = temp.store
  })
  afterAll(() => temp.close())
  beforeEach(async () => {
    // Each case starts from an empty gallery.
    for (const record of (await store.wumpuses.list({ limit: 100, withSensitive: true })).items) await store.wumpuses.delete(record._id)
    for (const file of await store.files.list({ createdBefore: new Date(Date.now() + 60_000), limit: 1000 }))
      await store.files.delete(file.id)
  })

  /** An animation as stored before stop 47: its Lottie without meta.a and, with `telegram`, a .tgs made from it. */
  async function olderAnimation(name: string, fields: { credit?: string; telegram?: boolean; author?: string } = {}) {
    const put = (bytes: Uint8Array, contentType: string, filename: string, purpose: 'animation' | 'derived' = 'animation') =>
      store.files.put({ bytes, contentType, filename, owner: MAKER, purpose })
    const source = lottie({ nm: name, ...(fields.author ? { meta: { a: fields.author, g: 'bodymovin' } } : {}) })
    const [gif, apng, json] = await Promise.all([
      put(new TextEncoder().encode('GIF89a'), 'image/gif', `${name}.gif`),
      put(new TextEncoder().encode('PNG'), 'image/apng', `${name}.png`),
      put(encode(source), 'application/json', `${name}.json`),
    ])
    const record = await store.wumpuses.insert({
      name,
      description: 'Stored before the credit work',
      u_email: MAKER,
      u_name: 'Maker Person',
      credit: fields.credit ?? '',
      files: {
        gif: { id: gif.id, filename: gif.filename },
        apng: { id: apng.id, filename: apng.filename },
        lottie: { id: json.id, filename: json.filename },
      },
    })
    if (!fields.telegram) return record
    const tgs = (await exportForPlatform('telegram', source)).file!
    const tgsFile = await put(tgs.bytes, tgs.facts.contentType, `${name}.tgs`, 'derived')
    const still = await put(new TextEncoder().encode('PNG'), 'image/png', `${name}.still.png`, 'derived')
    const facts = { contentType: 'image/png', bytes: 3, width: 512, height: 512, frames: 1, durationMs: 0 }
    const stillRef = { id: still.id, filename: still.filename, ...facts }
    return (await store.wumpuses.setDerived(record._id, json.id, {
      source: json.id,
      version: 3,
      madeAt: new Date(),
      previews: { small: stillRef, large: stillRef, still: stillRef },
      exports: [{ platform: 'telegram', file: { id: tgsFile.id, filename: tgsFile.filename, ...pickMediaFacts(tgs.facts) }, notes: [] }],
    }))!
  }

  const authorOf = async (fileId: string) => lottieAuthor(parse((await store.files.read(fileId))!.bytes))
  const tgsOf = (record: WumpusRecord) => record.derived!.exports.find((entry) => entry.platform === 'telegram')!.file!
  const tgsAuthorOf = async (record: WumpusRecord) => lottieAuthor(parse(gunzipSync((await store.files.read(tgsOf(record).id))!.bytes)))
  const get = async (id: string) => (await store.wumpuses.get(id))!
  const storedFiles = async () =>
    (await store.files.list({ createdBefore: new Date(Date.now() + 60_000), limit: 1000 })).map((file) => file.id).sort()
  /** Every file the gallery's records name. */
  const namedFiles = async () => {
    const records = (await store.wumpuses.list({ limit: 100, withSensitive: true })).items
    const ids = records.flatMap((record) => [
      ...Object.values(record.files).map((ref) => ref.id),
      ...Object.values(record.derived?.previews ?? {}).map((ref) => ref.id),
      ...(record.derived?.exports ?? []).flatMap((entry) => (entry.file ? [entry.file.id] : [])),
    ])
    return [...new Set(ids)].sort()
  }
  const backfill = () => createCreditBackfill({ store, logger: createLogger('silent') })

  it('writes the maker into the Lottie and its .tgs, leaves credited ones alone, and orphans no file', async () => {
    const credited = await olderAnimation('Credited', { credit: 'Ana Lima', telegram: true })
    const contributor = await olderAnimation('Contributor')
    const already = await olderAnimation('Already', { credit: 'Bo Chen', author: 'Bo Chen' })
    const otherAuthor = await olderAnimation('Other author', { author: 'Someone Else' })

    const changed: string[] = []
    const report = await createCreditBackfill({ store, logger: createLogger('silent'), onChange: (id) => changed.push(id) }).run()
    expect(report).toMatchObject({ animations: 3, checked: 4 })
    // Told as of an edit, for the Telegram sets holding them.
    expect(changed.sort()).toEqual([credited._id, contributor._id, otherAuthor._id].sort())
    expect(report.bytesRead).toBeGreaterThan(0)

    const after = await get(credited._id)
    expect(after.credit).toBe('Ana Lima')
    expect(after.files.lottie.id).not.toBe(credited.files.lottie.id)
    expect(await authorOf(after.files.lottie.id)).toBe('Ana Lima')
    expect(await tgsAuthorOf(after)).toBe('Ana Lima')
    expect(after.derived).toMatchObject({ source: after.files.lottie.id, previews: credited.derived!.previews })
    expect(await authorOf((await get(contributor._id)).files.lottie.id)).toBe('Maker Person')
    // A Lottie naming someone else names the credited maker; its other meta keys stay.
    const replaced = parse((await store.files.read((await get(otherAuthor._id)).files.lottie.id))!.bytes) as { meta: unknown }
    expect(replaced.meta).toEqual({ a: 'Maker Person', g: 'bodymovin' })
    expect(await get(already._id)).toEqual(already)
    expect(await storedFiles()).toEqual(await namedFiles())

    // A second pass finds nothing to do.
    expect(await backfill().run()).toMatchObject({ animations: 0, checked: 4 })
  })

  it('takes up a pass cut short where it stopped', async () => {
    const records = [await olderAnimation('One'), await olderAnimation('Two', { telegram: true }), await olderAnimation('Three')]
    const first = backfill()
    const setCredit = store.wumpuses.setCredit.bind(store.wumpuses)
    // The server stops after the pass's first write.
    const spy = vi.spyOn(store.wumpuses, 'setCredit').mockImplementation(async (...args) => {
      const written = await setCredit(...args)
      void first.close()
      return written
    })
    expect(await first.run()).toMatchObject({ animations: 1 })
    spy.mockRestore()
    const rewritten = (await Promise.all(records.map((record) => get(record._id)))).filter(
      (record, index) => record.files.lottie.id !== records[index]!.files.lottie.id,
    )
    expect(rewritten).toHaveLength(1)

    expect(await backfill().run()).toMatchObject({ animations: 2, checked: 3 })
    // The one done before is not done again.
    expect(await get(rewritten[0]!._id)).toEqual(rewritten[0])
    for (const record of records) expect(await authorOf((await get(record._id)).files.lottie.id)).toBe('Maker Person')
    expect(await tgsAuthorOf(await get(records[1]!._id))).toBe('Maker Person')
    expect(await storedFiles()).toEqual(await namedFiles())
  })

  it('leaves an animation edited meanwhile as the edit left it, and its files', async () => {
    const lottieEdited = await olderAnimation('Lottie edited')
    const creditEdited = await olderAnimation('Credit edited')
    const setCredit = store.wumpuses.setCredit.bind(store.wumpuses)
    const edits: WumpusRecord[] = []
    // Between the pass's read and its write, an admin edits each animation.
    vi.spyOn(store.wumpuses, 'setCredit').mockImplementation(async (id, ...rest) => {
      if (id === lottieEdited._id) {
        const json = await store.files.put({
          bytes: encode(lottie({ meta: { a: 'Maker Person' } })),
          contentType: 'application/json',
          filename: 'new.json',
        })
        edits.push(
          (await store.wumpuses.update(id, { files: { ...lottieEdited.files, lottie: { id: json.id, filename: json.filename } } }))!,
        )
        await store.files.delete(lottieEdited.files.lottie.id)
      } else {
        // The same maker named as a credit: the Lottie is right as it is, and the credit must stay.
        edits.push((await store.wumpuses.update(id, { credit: 'Maker Person' }))!)
      }
      return setCredit(id, ...rest)
    })
    try {
      expect(await backfill().run()).toMatchObject({ animations: 0, checked: 2 })
    } finally {
      vi.restoreAllMocks()
    }
    for (const edit of edits) expect(await get(edit._id)).toEqual(edit)
    expect((await get(creditEdited._id)).credit).toBe('Maker Person')
    expect(await storedFiles()).toEqual(await namedFiles())
    // The next pass writes the maker into the one whose Lottie still lacks it.
    expect(await backfill().run()).toMatchObject({ animations: 1 })
    expect(await get(creditEdited._id)).toMatchObject({ credit: 'Maker Person' })
    expect(await authorOf((await get(creditEdited._id)).files.lottie.id)).toBe('Maker Person')
  })
})

describe('needsMaker', () => {
  it('finds the maker the gallery wrote without parsing, and parses other bytes', () => {
    expect(needsMaker(encode(lottie({ meta: { a: 'Ana "A" Lima' } })), 'Ana "A" Lima')).toBe(false)
    expect(needsMaker(new TextEncoder().encode('{ "v": "5.7.4", "meta": { "a": "Ana" } }'), 'Ana')).toBe(false)
    expect(needsMaker(encode(lottie()), 'Ana')).toBe(true)
    expect(needsMaker(encode(lottie({ nm: '"a":"Ana"' })), 'Ana')).toBe(true)
    expect(needsMaker(encode(lottie({ meta: { a: 'Bo' } })), 'Ana')).toBe(true)
    // Not a Lottie the inspector would let in: nothing to write.
    expect(needsMaker(new TextEncoder().encode('[1, 2]'), 'Ana')).toBe(false)
  })
})
