/**
 * The one behaviour suite every Store adapter must pass. Call it from an adapter's test file with
 * a factory that opens a store over fresh, empty data.
 */
import { createHash, randomBytes } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { encodeCursor } from './ids'
import { InvalidCursorError, type DerivedMedia, type NewFile, type NewWumpus, type Store, type StoredFile, type WumpusRecord } from './port'

export interface StoreUnderTest {
  store: Store
  /** Closes `store` and opens a new store over the same data. */
  reopen(): Promise<Store>
  /** Closes whatever is open and removes the data. */
  destroy(): Promise<void>
}

export type StoreFactory = () => Promise<StoreUnderTest>

const UNKNOWN_ID = 'abcdefabcdefabcdefabcdef'
const MALFORMED_IDS = ['', 'nope', 'ABCDEFABCDEFABCDEFABCDEF', 'abcdefabcdefabcdefabcde', `${UNKNOWN_ID}0`, '{"$gt":""}']

/** A valid new record with unique names and file refs; for adapter-specific tests too. */
export function sampleWumpus(overrides: Partial<NewWumpus> = {}): NewWumpus {
  const tag = randomBytes(4).toString('hex')
  return {
    name: `Wumpus ${tag}`,
    description: `A wumpus called ${tag}`,
    files: {
      gif: { id: `${tag}0000000000000001`, filename: `${tag}.gif` },
      apng: { id: `${tag}0000000000000002`, filename: `${tag}.png` },
      lottie: { id: `${tag}0000000000000003`, filename: `${tag}.json` },
    },
    u_email: 'maker@example.com',
    u_name: 'Maker',
    ...overrides,
  }
}

/** Random 24-hex ids, as the files a record refers to. */
function sampleFiles(): NewWumpus['files'] {
  const { files } = sampleWumpus()
  return files
}

function fileIds(files: NewWumpus['files']): string[] {
  return [files.gif.id, files.apng.id, files.lottie.id]
}

async function inUse(store: Store, ids: string[]): Promise<boolean[]> {
  return Promise.all(ids.map((id) => store.isFileInUse(id)))
}

/** Puts a file once the clock has moved past the previous one, so creation times differ. */
async function putAfter(store: Store, previous: StoredFile | undefined, file: NewFile): Promise<StoredFile> {
  while (previous && Date.now() <= previous.createdAt.getTime()) await new Promise((resolve) => setImmediate(resolve))
  return store.putFile(file)
}

function later(date: Date, ms = 1): Date {
  return new Date(date.getTime() + ms)
}

/** The expected newest-first order: createdAt desc, then _id desc. */
function newestFirst(records: WumpusRecord[]): string[] {
  return [...records]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0))
    .map((record) => record._id)
}

async function collectPages(store: Store, limit: number, u_email?: string): Promise<{ ids: string[]; pages: number; totals: number[] }> {
  const ids: string[] = []
  const totals: number[] = []
  let cursor: string | undefined
  let pages = 0
  do {
    const page = await store.listWumpuses({ limit, cursor, u_email })
    expect(page.items.length).toBeLessThanOrEqual(limit)
    ids.push(...page.items.map((item) => item._id))
    totals.push(page.total)
    cursor = page.nextCursor
    pages++
    if (pages > 1000) throw new Error('Paging does not end')
  } while (cursor)
  return { ids, pages, totals }
}

export function describeStoreContract(name: string, factory: StoreFactory, expectedKind: Store['kind']): void {
  describe(`Store contract: ${name}`, () => {
    let subject: StoreUnderTest
    let store: Store

    beforeEach(async () => {
      subject = await factory()
      store = subject.store
    })

    afterEach(async () => {
      await subject.destroy()
    })

    it('reports its kind and answers ping', async () => {
      expect(store.kind).toBe(expectedKind)
      await expect(store.ping()).resolves.toBeUndefined()
    })

    describe('wumpuses', () => {
      it('inserts and reads back a record with a 24-hex id and dates', async () => {
        const input = sampleWumpus()
        const before = Date.now()
        const inserted = await store.insertWumpus(input)
        expect(inserted._id).toMatch(/^[0-9a-f]{24}$/)
        expect(inserted).toMatchObject(input)
        expect(inserted.createdAt).toBeInstanceOf(Date)
        expect(inserted.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1)
        expect(inserted.updatedAt.getTime()).toBe(inserted.createdAt.getTime())
        expect(await store.getWumpus(inserted._id)).toEqual(inserted)
      })

      it('keeps a given createdAt and gives each record its own id', async () => {
        const createdAt = new Date('2024-02-03T04:05:06.789Z')
        const a = await store.insertWumpus(sampleWumpus({ createdAt }))
        const b = await store.insertWumpus(sampleWumpus({ createdAt }))
        expect(a.createdAt).toEqual(createdAt)
        expect((await store.getWumpus(a._id))?.createdAt).toEqual(createdAt)
        expect(a._id).not.toBe(b._id)
      })

      it('does not store keys outside the record shape', async () => {
        const sample = sampleWumpus()
        const input = { ...sample, role: 'admin', files: { ...sample.files, gif: { ...sample.files.gif, size: 3 } } } as NewWumpus
        const inserted = await store.insertWumpus(input)
        const read = await store.getWumpus(inserted._id)
        expect(Object.keys(read ?? {}).sort()).toEqual(
          ['_id', 'createdAt', 'description', 'files', 'name', 'u_email', 'u_name', 'updatedAt'],
        )
        expect(read?.files).toEqual(sample.files)
        await store.updateWumpus(inserted._id, { u_email: 'thief@example.com' } as never)
        expect((await store.getWumpus(inserted._id))?.u_email).toBe(sample.u_email)
      })

      it('answers undefined or 0 for unknown and malformed ids', async () => {
        await store.insertWumpus(sampleWumpus())
        for (const id of [UNKNOWN_ID, ...MALFORMED_IDS]) {
          expect(await store.getWumpus(id)).toBeUndefined()
          expect(await store.updateWumpus(id, { name: 'x' })).toBeUndefined()
          expect(await store.deleteWumpus(id)).toBe(0)
        }
        expect(await store.countWumpuses()).toBe(1)
      })

      it('updates only the patched fields and bumps updatedAt', async () => {
        const inserted = await store.insertWumpus(sampleWumpus({ createdAt: new Date(Date.now() - 60_000) }))
        const files = {
          gif: { id: 'f00000000000000000000001', filename: 'new.gif' },
          apng: { id: 'f00000000000000000000002', filename: 'new.png' },
          lottie: { id: 'f00000000000000000000003', filename: 'new.json' },
        }
        const updated = await store.updateWumpus(inserted._id, { name: 'Renamed', files, description: undefined })
        expect(updated).toEqual({
          ...inserted,
          name: 'Renamed',
          files,
          updatedAt: updated?.updatedAt,
        })
        expect(updated!.updatedAt.getTime()).toBeGreaterThan(inserted.createdAt.getTime())
        expect(await store.getWumpus(inserted._id)).toEqual(updated)
      })

      it('deletes once and counts what is left', async () => {
        const a = await store.insertWumpus(sampleWumpus())
        const b = await store.insertWumpus(sampleWumpus())
        expect(await store.countWumpuses()).toBe(2)
        expect(await store.deleteWumpus(a._id)).toBe(1)
        expect(await store.deleteWumpus(a._id)).toBe(0)
        expect(await store.getWumpus(a._id)).toBeUndefined()
        expect(await store.getWumpus(b._id)).toEqual(b)
        expect(await store.countWumpuses()).toBe(1)
        const page = await store.listWumpuses({ limit: 10 })
        expect(page.items.map((item) => item._id)).toEqual([b._id])
        expect(page.total).toBe(1)
      })

      it('moves the revision on every animation write, and only then', async () => {
        const seen = [store.wumpusRevision()]
        const record = await store.insertWumpus(sampleWumpus())
        seen.push(store.wumpusRevision())
        await store.updateWumpus(record._id, { name: 'Renamed' })
        seen.push(store.wumpusRevision())
        await store.deleteWumpus(record._id)
        seen.push(store.wumpusRevision())
        expect(new Set(seen).size).toBe(4)
        // Reads and writes that change nothing leave it alone.
        await store.listWumpuses({ limit: 5 })
        await store.updateWumpus(record._id, { name: 'Gone' })
        await store.deleteWumpus(record._id)
        await store.upsertUser('reader@example.com', {})
        expect(store.wumpusRevision()).toBe(seen[3])
      })

      it('lists newest first across pages with no duplicates or gaps, stable on createdAt ties', async () => {
        const base = Date.UTC(2025, 0, 1)
        const records: WumpusRecord[] = []
        // 5 distinct times, 5 records each, inserted in a scrambled order.
        const times = Array.from({ length: 25 }, (_, i) => base + ((i * 7) % 5) * 1000)
        for (const time of times) records.push(await store.insertWumpus(sampleWumpus({ createdAt: new Date(time) })))
        const expected = newestFirst(records)

        const first = await store.listWumpuses({ limit: 7 })
        expect(first.items.map((item) => item._id)).toEqual(expected.slice(0, 7))
        expect(first.total).toBe(25)
        expect(first.items[0]).toEqual(records.find((record) => record._id === expected[0]))

        const { ids, pages, totals } = await collectPages(store, 7)
        expect(ids).toEqual(expected)
        expect(new Set(ids).size).toBe(25)
        expect(pages).toBe(4)
        expect(totals.every((total) => total === 25)).toBe(true)
      })

      it('ends without an empty page when the count divides evenly, and handles an empty store', async () => {
        expect(await store.listWumpuses({ limit: 5 })).toEqual({ items: [], total: 0 })
        for (let i = 0; i < 10; i++) await store.insertWumpus(sampleWumpus({ createdAt: new Date(Date.UTC(2025, 0, 1, 0, i)) }))
        const first = await store.listWumpuses({ limit: 5 })
        expect(first.nextCursor).toBeDefined()
        const second = await store.listWumpuses({ limit: 5, cursor: first.nextCursor })
        expect(second.items).toHaveLength(5)
        expect(second.nextCursor).toBeUndefined()
        const whole = await store.listWumpuses({ limit: 10 })
        expect(whole.items).toHaveLength(10)
        expect(whole.nextCursor).toBeUndefined()
      })

      it('keeps paging stable when records are added or deleted between pages', async () => {
        const records: WumpusRecord[] = []
        for (let i = 0; i < 12; i++) {
          records.push(await store.insertWumpus(sampleWumpus({ createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i)) })))
        }
        const expected = newestFirst(records)
        const first = await store.listWumpuses({ limit: 4 })
        expect(first.items.map((item) => item._id)).toEqual(expected.slice(0, 4))
        // A newer record and the deletion of the cursor's own record must not shift the next page.
        await store.insertWumpus(sampleWumpus())
        expect(await store.deleteWumpus(expected[3]!)).toBe(1)
        const second = await store.listWumpuses({ limit: 4, cursor: first.nextCursor })
        expect(second.items.map((item) => item._id)).toEqual(expected.slice(4, 8))
        expect(second.total).toBe(12)
      })

      it('filters by uploader with its own total and paging', async () => {
        const mine: WumpusRecord[] = []
        for (let i = 0; i < 9; i++) {
          const createdAt = new Date(Date.UTC(2025, 5, 1, 0, 0, i % 3))
          mine.push(await store.insertWumpus(sampleWumpus({ u_email: 'me@example.com', createdAt })))
          await store.insertWumpus(sampleWumpus({ u_email: 'other@example.com', createdAt }))
        }
        const page = await store.listWumpuses({ limit: 4, u_email: 'me@example.com' })
        expect(page.total).toBe(9)
        expect(page.items.every((item) => item.u_email === 'me@example.com')).toBe(true)
        const { ids, totals } = await collectPages(store, 4, 'me@example.com')
        expect(ids).toEqual(newestFirst(mine))
        expect(totals).toEqual([9, 9, 9])
        expect(await store.listWumpuses({ limit: 4, u_email: 'nobody@example.com' })).toEqual({ items: [], total: 0 })
        expect(await store.countWumpuses()).toBe(18)
      })

      it('rejects malformed cursors with InvalidCursorError', async () => {
        await store.insertWumpus(sampleWumpus())
        const bad = [
          'garbage',
          '',
          Buffer.from('123.nothex').toString('base64url'),
          Buffer.from(`abc.${UNKNOWN_ID}`).toString('base64url'),
          Buffer.from(`1.${UNKNOWN_ID}.1`).toString('base64url'),
        ]
        for (const cursor of bad) {
          await expect(store.listWumpuses({ limit: 5, cursor })).rejects.toBeInstanceOf(InvalidCursorError)
        }
        // A well-formed cursor past every record is a valid, empty page.
        const past = encodeCursor({ createdAt: new Date(0), _id: UNKNOWN_ID })
        expect(await store.listWumpuses({ limit: 5, cursor: past })).toEqual({ items: [], total: 1 })
      })
    })

    describe('users', () => {
      it('creates a user with defaults for missing fields', async () => {
        const before = Date.now()
        const user = await store.upsertUser('ann@example.com', { user_name: 'Ann', photo: 'https://x/ann.png' })
        expect(user).toEqual({
          email: 'ann@example.com',
          user_name: 'Ann',
          role: 'user',
          photo: 'https://x/ann.png',
          cover: '',
          url: '',
          job: '',
          description: '',
          createdAt: user.createdAt,
          updatedAt: user.updatedAt,
        })
        expect(user.createdAt).toBeInstanceOf(Date)
        expect(user.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1)
        expect(await store.getUser('ann@example.com')).toEqual(user)
        expect(await store.getUser('nobody@example.com')).toBeUndefined()
      })

      it('patches an existing user without touching other fields', async () => {
        const created = await store.upsertUser('bob@example.com', { user_name: 'Bob', job: 'Baker', role: 'admin' })
        const patched = await store.upsertUser('bob@example.com', { description: 'Bakes', job: undefined })
        expect(patched).toEqual({ ...created, description: 'Bakes', updatedAt: patched.updatedAt })
        expect(patched.updatedAt.getTime()).toBeGreaterThanOrEqual(created.updatedAt.getTime())
        expect(await store.getUser('bob@example.com')).toEqual(patched)
      })

      it('lists users by email ascending', async () => {
        for (const email of ['c@example.com', 'a@example.com', 'b@example.com']) {
          await store.upsertUser(email, { user_name: email[0] })
        }
        const users = await store.listUsers()
        expect(users.map((user) => user.email)).toEqual(['a@example.com', 'b@example.com', 'c@example.com'])
        expect(Object.keys(users[0]!).sort()).toEqual(
          ['cover', 'createdAt', 'description', 'email', 'job', 'photo', 'role', 'updatedAt', 'url', 'user_name'],
        )
      })

      it('sets a role once and answers 0 when nothing changes', async () => {
        await store.upsertUser('dan@example.com', {})
        expect(await store.setRole('dan@example.com', 'admin')).toBe(1)
        expect(await store.setRole('dan@example.com', 'admin')).toBe(0)
        expect(await store.setRole('nobody@example.com', 'admin')).toBe(0)
        expect((await store.getUser('dan@example.com'))?.role).toBe('admin')
        expect(await store.setRole('dan@example.com', 'user')).toBe(1)
        expect((await store.getUser('dan@example.com'))?.role).toBe('user')
      })

      it('keeps one user per email when first sign-ins race', async () => {
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, i) => store.upsertUser('eve@example.com', { user_name: `Eve ${i}` })),
        )
        expect(results.every((user) => user.email === 'eve@example.com')).toBe(true)
        const users = await store.listUsers()
        expect(users).toHaveLength(1)
        expect(users[0]!.user_name).toMatch(/^Eve \d$/)
      })
    })

    describe('files', () => {
      it('stores and reads back about 1 MB byte for byte with its sha256', async () => {
        const bytes = new Uint8Array(randomBytes(1024 * 1024 + 4321))
        const sha256 = createHash('sha256').update(bytes).digest('hex')
        const info = await store.putFile({ bytes, contentType: 'image/gif', filename: 'dancing wumpus.gif' })
        expect(info).toEqual({
          id: info.id,
          contentType: 'image/gif',
          filename: 'dancing wumpus.gif',
          size: bytes.length,
          sha256,
          createdAt: info.createdAt,
        })
        expect(info.id).toMatch(/^[0-9a-f]{24}$/)
        expect(info.createdAt).toBeInstanceOf(Date)
        expect(await store.getFileInfo(info.id)).toEqual(info)
        const read = await store.readFile(info.id)
        expect(read?.info).toEqual(info)
        expect(read?.bytes).toBeInstanceOf(Uint8Array)
        expect(Buffer.compare(Buffer.from(read!.bytes), Buffer.from(bytes))).toBe(0)
      })

      it('round-trips an empty file', async () => {
        const info = await store.putFile({ bytes: new Uint8Array(), contentType: 'application/json', filename: 'empty.json' })
        expect(info.size).toBe(0)
        expect(info.sha256).toBe(createHash('sha256').digest('hex'))
        expect((await store.readFile(info.id))?.bytes).toHaveLength(0)
      })

      it('answers undefined or false for unknown and malformed ids', async () => {
        for (const id of [UNKNOWN_ID, ...MALFORMED_IDS]) {
          expect(await store.getFileInfo(id)).toBeUndefined()
          expect(await store.readFile(id)).toBeUndefined()
          expect(await store.deleteFile(id)).toBe(false)
        }
      })

      it('deletes a file once and leaves the others', async () => {
        const keep = await store.putFile({ bytes: new Uint8Array([1, 2, 3]), contentType: 'image/png', filename: 'a.png' })
        const gone = await store.putFile({ bytes: new Uint8Array([4, 5, 6]), contentType: 'image/apng', filename: 'b.png' })
        expect(await store.deleteFile(gone.id)).toBe(true)
        expect(await store.deleteFile(gone.id)).toBe(false)
        expect(await store.getFileInfo(gone.id)).toBeUndefined()
        expect(await store.readFile(gone.id)).toBeUndefined()
        expect(Array.from((await store.readFile(keep.id))!.bytes)).toEqual([1, 2, 3])
      })

      it('keeps owner and purpose, and leaves them out when not given', async () => {
        const bytes = new Uint8Array([1, 2, 3])
        const photo = await store.putFile({ bytes, contentType: 'image/png', filename: 'me.png', owner: 'ann@example.com', purpose: 'image' })
        const frame = await store.putFile({ bytes, contentType: 'image/gif', filename: 'w.gif', purpose: 'animation' })
        const plain = await store.putFile({ bytes, contentType: 'image/gif', filename: 'p.gif' })
        expect(photo).toMatchObject({ owner: 'ann@example.com', purpose: 'image' })
        expect(frame.purpose).toBe('animation')
        expect(Object.keys(frame)).not.toContain('owner')
        expect(Object.keys(plain).sort()).toEqual(['contentType', 'createdAt', 'filename', 'id', 'sha256', 'size'])
        for (const info of [photo, frame, plain]) {
          expect(await store.getFileInfo(info.id)).toStrictEqual(info)
          expect((await store.readFile(info.id))?.info).toStrictEqual(info)
        }
        const listed = await store.listFiles({ createdBefore: later(new Date(), 1000), limit: 10 })
        expect(listed).toHaveLength(3)
        for (const info of [photo, frame, plain]) expect(listed.find((file) => file.id === info.id)).toStrictEqual(info)
      })

      it('lists files created strictly before a time, oldest first, at most limit', async () => {
        expect(await store.listFiles({ createdBefore: new Date(), limit: 10 })).toEqual([])
        const files: StoredFile[] = []
        for (let i = 0; i < 5; i++) {
          const file = await putAfter(store, files[i - 1], { bytes: new Uint8Array([i]), contentType: 'image/gif', filename: `${i}.gif`, owner: `u${i}@example.com`, purpose: 'animation' })
          files.push(file)
        }
        const end = later(files[4]!.createdAt)
        expect(await store.listFiles({ createdBefore: end, limit: 10 })).toStrictEqual(files)
        expect(await store.listFiles({ createdBefore: end, limit: 2 })).toStrictEqual(files.slice(0, 2))
        expect(await store.listFiles({ createdBefore: end, limit: 0 })).toEqual([])
        // The boundary is exclusive.
        expect(await store.listFiles({ createdBefore: files[2]!.createdAt, limit: 10 })).toStrictEqual(files.slice(0, 2))
        expect(await store.listFiles({ createdBefore: later(files[2]!.createdAt), limit: 10 })).toStrictEqual(files.slice(0, 3))
        expect(await store.listFiles({ createdBefore: files[0]!.createdAt, limit: 10 })).toEqual([])
        expect(await store.deleteFile(files[1]!.id)).toBe(true)
        expect((await store.listFiles({ createdBefore: end, limit: 3 })).map((file) => file.id)).toEqual(
          [files[0]!, files[2]!, files[3]!].map((file) => file.id),
        )
      })

      it('pages through files after a given one, including files that share a creation time', async () => {
        const files: StoredFile[] = []
        for (let i = 0; i < 3; i++) files.push(await putAfter(store, files[i - 1], { bytes: new Uint8Array([i]), contentType: 'image/gif', filename: `${i}.gif` }))
        // Two more in quick succession may share a millisecond: ordering falls back to the id.
        files.push(await store.putFile({ bytes: new Uint8Array([7]), contentType: 'image/gif', filename: 'a.gif' }))
        files.push(await store.putFile({ bytes: new Uint8Array([8]), contentType: 'image/gif', filename: 'b.gif' }))
        const end = later(files[4]!.createdAt)
        const all = await store.listFiles({ createdBefore: end, limit: 10 })
        const paged: StoredFile[] = []
        let after: StoredFile | undefined
        for (;;) {
          const page = await store.listFiles({ createdBefore: end, limit: 2, after })
          if (page.length === 0) break
          paged.push(...page)
          after = page.at(-1)
        }
        expect(paged).toStrictEqual(all)
        expect(new Set(paged.map((file) => file.id)).size).toBe(5)
      })
    })

    describe('files in use', () => {
      it('follows inserts, updates that replace files, and deletes', async () => {
        const a = await store.insertWumpus(sampleWumpus())
        const aIds = fileIds(a.files)
        expect(await inUse(store, aIds)).toEqual([true, true, true])
        // b shares a's GIF.
        const b = await store.insertWumpus(sampleWumpus({ files: { ...sampleFiles(), gif: a.files.gif } }))
        const bIds = fileIds(b.files)
        expect(await inUse(store, bIds)).toEqual([true, true, true])

        // a gets a new GIF and Lottie and keeps its APNG.
        const fresh = sampleFiles()
        const replaced = { gif: fresh.gif, apng: a.files.apng, lottie: fresh.lottie }
        expect(await store.updateWumpus(a._id, { files: replaced })).toBeDefined()
        expect(await inUse(store, fileIds(replaced))).toEqual([true, true, true])
        expect(await store.isFileInUse(a.files.lottie.id)).toBe(false)
        expect(await store.isFileInUse(a.files.gif.id)).toBe(true) // still b's
        await store.updateWumpus(a._id, { name: 'Renamed' })
        expect(await inUse(store, fileIds(replaced))).toEqual([true, true, true])

        expect(await store.deleteWumpus(b._id)).toBe(1)
        expect(await inUse(store, bIds)).toEqual([false, false, false])
        expect(await inUse(store, fileIds(replaced))).toEqual([true, true, true])
        expect(await store.deleteWumpus(a._id)).toBe(1)
        expect((await inUse(store, [...aIds, ...fileIds(replaced)])).some(Boolean)).toBe(false)
      })

      it('answers false for unknown and malformed ids and for record ids', async () => {
        const record = await store.insertWumpus(sampleWumpus())
        expect(await store.isFileInUse(record._id)).toBe(false)
        for (const id of [UNKNOWN_ID, ...MALFORMED_IDS]) expect(await store.isFileInUse(id)).toBe(false)
        // Even when a record refers to a malformed id.
        const odd = await store.insertWumpus(sampleWumpus({ files: { ...sampleFiles(), gif: { id: 'ABCDEFABCDEFABCDEFABCDEF', filename: 'x.gif' } } }))
        expect(await store.isFileInUse(odd.files.gif.id)).toBe(false)
        expect(await store.isFileInUse(odd.files.apng.id)).toBe(true)
      })

      it('does not count a stored file as in use by itself', async () => {
        const file = await store.putFile({ bytes: new Uint8Array([1]), contentType: 'image/gif', filename: 'x.gif', purpose: 'animation' })
        expect(await store.isFileInUse(file.id)).toBe(false)
        await store.insertWumpus(sampleWumpus({ files: { ...sampleFiles(), lottie: { id: file.id, filename: 'x.json' } } }))
        expect(await store.isFileInUse(file.id)).toBe(true)
      })
    })

    describe('derived media', () => {
      const derivedFor = (lottieId: string): DerivedMedia => {
        const file = (n: number) => ({
          id: `${randomBytes(10).toString('hex')}${String(n).padStart(4, '0')}`, filename: `w.${n}.webp`, contentType: 'image/webp',
          bytes: 1000 + n, width: 300, height: 300, frames: 40, durationMs: 2000,
        })
        return {
          source: lottieId, version: 1, madeAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
          previews: { small: file(1), large: file(2), still: { ...file(3), frames: 1, durationMs: 0 } },
          exports: [
            { platform: 'discord', file: { ...file(4), contentType: 'image/apng' }, notes: [] },
            { platform: 'telegram', notes: ['The animation runs 4 s; Telegram allows 3 s'] },
          ],
        }
      }
      const idsOf = (d: DerivedMedia) => [d.previews!.small.id, d.previews!.large.id, d.previews!.still.id, d.exports[0]!.file!.id]

      it('sets it only while the Lottie is the given one, reads it back everywhere, and keeps updatedAt', async () => {
        const record = await store.insertWumpus(sampleWumpus())
        const derived = derivedFor(record.files.lottie.id)
        const revision = store.wumpusRevision()
        expect(await store.setDerivedMedia(record._id, UNKNOWN_ID, derived)).toBeUndefined()
        expect(store.wumpusRevision()).toBe(revision)
        for (const id of [UNKNOWN_ID, ...MALFORMED_IDS]) {
          expect(await store.setDerivedMedia(id, record.files.lottie.id, derived)).toBeUndefined()
        }

        const updated = await store.setDerivedMedia(record._id, record.files.lottie.id, { ...derived, extra: 'dropped' } as DerivedMedia)
        expect(updated).toEqual({ ...record, derived })
        expect(store.wumpusRevision()).toBeGreaterThan(revision)
        expect(await store.getWumpus(record._id)).toEqual({ ...record, derived })
        expect((await store.listWumpuses({ limit: 10 })).items).toEqual([{ ...record, derived }])
        // Other writes keep it.
        expect((await store.updateWumpus(record._id, { name: 'Renamed' }))?.derived).toEqual(derived)
      })

      it('removes it with null, and its files count as in use only while it is there', async () => {
        const record = await store.insertWumpus(sampleWumpus())
        const derived = derivedFor(record.files.lottie.id)
        expect(await inUse(store, idsOf(derived))).toEqual([false, false, false, false])
        await store.setDerivedMedia(record._id, record.files.lottie.id, derived)
        expect(await inUse(store, idsOf(derived))).toEqual([true, true, true, true])
        const next = derivedFor(record.files.lottie.id)
        await store.setDerivedMedia(record._id, record.files.lottie.id, next)
        expect(await inUse(store, [...idsOf(derived), ...idsOf(next)])).toEqual([false, false, false, false, true, true, true, true])
        const cleared = await store.setDerivedMedia(record._id, record.files.lottie.id, null)
        expect(cleared).toBeDefined()
        expect(cleared!.derived).toBeUndefined()
        expect(await inUse(store, idsOf(next))).toEqual([false, false, false, false])

        await store.setDerivedMedia(record._id, record.files.lottie.id, next)
        await store.deleteWumpus(record._id)
        expect(await inUse(store, idsOf(next))).toEqual([false, false, false, false])
      })

      it('is refused once the Lottie was replaced', async () => {
        const record = await store.insertWumpus(sampleWumpus())
        const { lottie } = sampleFiles()
        await store.updateWumpus(record._id, { files: { ...record.files, lottie } })
        expect(await store.setDerivedMedia(record._id, record.files.lottie.id, derivedFor(record.files.lottie.id))).toBeUndefined()
        expect(await store.setDerivedMedia(record._id, lottie.id, derivedFor(lottie.id))).toMatchObject({ derived: { source: lottie.id } })
      })

      it('survives close and reopen', async () => {
        const record = await store.insertWumpus(sampleWumpus())
        const derived = derivedFor(record.files.lottie.id)
        await store.setDerivedMedia(record._id, record.files.lottie.id, derived)
        const reopened = await subject.reopen()
        expect((await reopened.getWumpus(record._id))?.derived).toEqual(derived)
        expect(await inUse(reopened, idsOf(derived))).toEqual([true, true, true, true])
      })
    })

    it('keeps everything across close and reopen', async () => {
      const records: WumpusRecord[] = []
      for (let i = 0; i < 6; i++) {
        const createdAt = new Date(Date.UTC(2025, 1, 1, 0, 0, i % 2))
        records.push(await store.insertWumpus(sampleWumpus({ createdAt, u_email: i % 2 ? 'odd@example.com' : 'even@example.com' })))
      }
      await store.updateWumpus(records[0]!._id, { name: 'Changed' })
      const replacedFiles = sampleFiles()
      await store.updateWumpus(records[2]!._id, { files: replacedFiles })
      await store.deleteWumpus(records[5]!._id)
      const updatedFirst = await store.getWumpus(records[0]!._id)
      const user = await store.upsertUser('fay@example.com', { user_name: 'Fay' })
      await store.setRole('fay@example.com', 'admin')
      const bytes = new Uint8Array(randomBytes(300_000))
      const file = await store.putFile({ bytes, contentType: 'image/gif', filename: 'f.gif' })
      const removedFile = await store.putFile({ bytes: new Uint8Array([9]), contentType: 'image/gif', filename: 'g.gif' })
      await store.deleteFile(removedFile.id)
      const photo = await store.putFile({ bytes: new Uint8Array([8]), contentType: 'image/png', filename: 'p.png', owner: 'fay@example.com', purpose: 'image' })
      const listed = await store.listWumpuses({ limit: 100 })
      const listedFiles = await store.listFiles({ createdBefore: later(photo.createdAt), limit: 10 })
      expect(listedFiles.map((info) => info.id).sort()).toEqual([file.id, photo.id].sort())

      const reopened = await subject.reopen()
      expect(await reopened.countWumpuses()).toBe(5)
      expect(await reopened.listWumpuses({ limit: 100 })).toEqual(listed)
      expect(await reopened.getWumpus(records[0]!._id)).toEqual(updatedFirst)
      expect(await reopened.getWumpus(records[5]!._id)).toBeUndefined()
      expect((await collectPages(reopened, 2, 'odd@example.com')).ids).toEqual(newestFirst(records.slice(0, 5).filter((_, i) => i % 2)))
      expect(await reopened.getUser('fay@example.com')).toEqual({ ...user, role: 'admin', updatedAt: expect.any(Date) })
      expect(await reopened.upsertUser('fay@example.com', { job: 'Judge' })).toMatchObject({ role: 'admin', job: 'Judge' })
      expect((await reopened.listUsers()).map((u) => u.email)).toEqual(['fay@example.com'])
      expect(await reopened.getFileInfo(file.id)).toEqual(file)
      expect(Buffer.compare(Buffer.from((await reopened.readFile(file.id))!.bytes), Buffer.from(bytes))).toBe(0)
      expect(await reopened.getFileInfo(removedFile.id)).toBeUndefined()
      expect(await reopened.getFileInfo(photo.id)).toStrictEqual(photo)
      expect(await reopened.listFiles({ createdBefore: later(photo.createdAt), limit: 10 })).toStrictEqual(listedFiles)
      expect(await inUse(reopened, fileIds(records[0]!.files))).toEqual([true, true, true])
      expect(await inUse(reopened, fileIds(replacedFiles))).toEqual([true, true, true])
      expect(await inUse(reopened, fileIds(records[2]!.files))).toEqual([false, false, false])
      expect(await inUse(reopened, fileIds(records[5]!.files))).toEqual([false, false, false])

      // The reopened store keeps working, ordered indexes included.
      const newest = await reopened.insertWumpus(sampleWumpus({ u_email: 'odd@example.com' }))
      expect((await reopened.listWumpuses({ limit: 1, u_email: 'odd@example.com' })).items[0]?._id).toBe(newest._id)
      expect(await reopened.deleteWumpus(records[1]!._id)).toBe(1)
      expect(await inUse(reopened, fileIds(records[1]!.files))).toEqual([false, false, false])
      expect(await inUse(reopened, fileIds(newest.files))).toEqual([true, true, true])
      expect((await reopened.listWumpuses({ limit: 100, u_email: 'odd@example.com' })).total).toBe(2)
    })
  })
}
