import { describe, expect, it } from 'vitest'
import { createHash, randomBytes } from 'node:crypto'
import { FileInUseError, type StoredFile } from '../../src/store/port'
import { fileIds, inUse, later, MALFORMED_IDS, putAfter, sampleFiles, sampleWumpus, type StoreInUse, UNKNOWN_ID } from './samples'

/** The files repository, and which files a record claims. */
export function describeFileBehaviour(t: StoreInUse): void {
  describe('files', () => {
    it("lists a user's files of one purpose, oldest first", async () => {
      const first = await t.store.files.put({
        bytes: new Uint8Array([1]),
        contentType: 'image/png',
        filename: 'a.png',
        owner: 'max@example.com',
        purpose: 'image',
      })
      await t.store.files.put({
        bytes: new Uint8Array([2]),
        contentType: 'image/gif',
        filename: 'b.gif',
        owner: 'max@example.com',
        purpose: 'animation',
      })
      await t.store.files.put({
        bytes: new Uint8Array([3]),
        contentType: 'image/png',
        filename: 'c.png',
        owner: 'ned@example.com',
        purpose: 'image',
      })
      const second = await putAfter(t.store, first, {
        bytes: new Uint8Array([4]),
        contentType: 'image/png',
        filename: 'd.png',
        owner: 'max@example.com',
        purpose: 'image',
      })
      expect(await t.store.files.listByOwner('max@example.com', 'image')).toEqual([first, second])
      expect(await t.store.files.listByOwner('nobody@example.com', 'image')).toEqual([])
    })

    it('stores and reads back about 1 MB byte for byte with its sha256', async () => {
      const bytes = new Uint8Array(randomBytes(1024 * 1024 + 4321))
      const sha256 = createHash('sha256').update(bytes).digest('hex')
      const info = await t.store.files.put({ bytes, contentType: 'image/gif', filename: 'dancing wumpus.gif' })
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
      expect(await t.store.files.info(info.id)).toEqual(info)
      const read = await t.store.files.read(info.id)
      expect(read?.info).toEqual(info)
      expect(read?.bytes).toBeInstanceOf(Uint8Array)
      expect(Buffer.compare(Buffer.from(read!.bytes), Buffer.from(bytes))).toBe(0)
    })

    it('streams small and large files byte for byte, and nothing for unknown ids', async () => {
      for (const size of [3, 2 * 1024 * 1024 + 17]) {
        const bytes = new Uint8Array(randomBytes(size))
        const info = await t.store.files.put({ bytes, contentType: 'image/gif', filename: 'w.gif' })
        const file = await t.store.files.stream(info.id)
        expect(file?.info).toEqual(info)
        const parts: Buffer[] = []
        for await (const part of file!.body) parts.push(part as Buffer)
        expect(Buffer.compare(Buffer.concat(parts), Buffer.from(bytes))).toBe(0)
      }
      for (const id of [UNKNOWN_ID, ...MALFORMED_IDS]) expect(await t.store.files.stream(id)).toBeUndefined()
    })

    it('round-trips an empty file', async () => {
      const info = await t.store.files.put({ bytes: new Uint8Array(), contentType: 'application/json', filename: 'empty.json' })
      expect(info.size).toBe(0)
      expect(info.sha256).toBe(createHash('sha256').digest('hex'))
      expect((await t.store.files.read(info.id))?.bytes).toHaveLength(0)
    })

    it('answers undefined or false for unknown and malformed ids', async () => {
      for (const id of [UNKNOWN_ID, ...MALFORMED_IDS]) {
        expect(await t.store.files.info(id)).toBeUndefined()
        expect(await t.store.files.read(id)).toBeUndefined()
        expect(await t.store.files.delete(id)).toBe(false)
      }
    })

    it('deletes a file once and leaves the others', async () => {
      const keep = await t.store.files.put({ bytes: new Uint8Array([1, 2, 3]), contentType: 'image/png', filename: 'a.png' })
      const gone = await t.store.files.put({ bytes: new Uint8Array([4, 5, 6]), contentType: 'image/apng', filename: 'b.png' })
      expect(await t.store.files.delete(gone.id)).toBe(true)
      expect(await t.store.files.delete(gone.id)).toBe(false)
      expect(await t.store.files.info(gone.id)).toBeUndefined()
      expect(await t.store.files.read(gone.id)).toBeUndefined()
      expect(Array.from((await t.store.files.read(keep.id))!.bytes)).toEqual([1, 2, 3])
    })

    it('keeps owner and purpose, and leaves them out when not given', async () => {
      const bytes = new Uint8Array([1, 2, 3])
      const photo = await t.store.files.put({
        bytes,
        contentType: 'image/png',
        filename: 'me.png',
        owner: 'ann@example.com',
        purpose: 'image',
      })
      const frame = await t.store.files.put({ bytes, contentType: 'image/gif', filename: 'w.gif', purpose: 'animation' })
      const plain = await t.store.files.put({ bytes, contentType: 'image/gif', filename: 'p.gif' })
      expect(photo).toMatchObject({ owner: 'ann@example.com', purpose: 'image' })
      expect(frame.purpose).toBe('animation')
      expect(Object.keys(frame)).not.toContain('owner')
      expect(Object.keys(plain).sort()).toEqual(['contentType', 'createdAt', 'filename', 'id', 'sha256', 'size'])
      for (const info of [photo, frame, plain]) {
        expect(await t.store.files.info(info.id)).toStrictEqual(info)
        expect((await t.store.files.read(info.id))?.info).toStrictEqual(info)
      }
      const listed = await t.store.files.list({ createdBefore: later(new Date(), 1000), limit: 10 })
      expect(listed).toHaveLength(3)
      for (const info of [photo, frame, plain]) expect(listed.find((file) => file.id === info.id)).toStrictEqual(info)
    })

    it('lists files created strictly before a time, oldest first, at most limit', async () => {
      expect(await t.store.files.list({ createdBefore: new Date(), limit: 10 })).toEqual([])
      const files: StoredFile[] = []
      for (let i = 0; i < 5; i++) {
        const file = await putAfter(t.store, files[i - 1], {
          bytes: new Uint8Array([i]),
          contentType: 'image/gif',
          filename: `${i}.gif`,
          owner: `u${i}@example.com`,
          purpose: 'animation',
        })
        files.push(file)
      }
      const end = later(files[4]!.createdAt)
      expect(await t.store.files.list({ createdBefore: end, limit: 10 })).toStrictEqual(files)
      expect(await t.store.files.list({ createdBefore: end, limit: 2 })).toStrictEqual(files.slice(0, 2))
      expect(await t.store.files.list({ createdBefore: end, limit: 0 })).toEqual([])
      // The boundary is exclusive.
      expect(await t.store.files.list({ createdBefore: files[2]!.createdAt, limit: 10 })).toStrictEqual(files.slice(0, 2))
      expect(await t.store.files.list({ createdBefore: later(files[2]!.createdAt), limit: 10 })).toStrictEqual(files.slice(0, 3))
      expect(await t.store.files.list({ createdBefore: files[0]!.createdAt, limit: 10 })).toEqual([])
      expect(await t.store.files.delete(files[1]!.id)).toBe(true)
      expect((await t.store.files.list({ createdBefore: end, limit: 3 })).map((file) => file.id)).toEqual(
        [files[0]!, files[2]!, files[3]!].map((file) => file.id),
      )
    })

    it('pages through files after a given one, including files that share a creation time', async () => {
      const files: StoredFile[] = []
      for (let i = 0; i < 3; i++)
        files.push(await putAfter(t.store, files[i - 1], { bytes: new Uint8Array([i]), contentType: 'image/gif', filename: `${i}.gif` }))
      // Two more in quick succession may share a millisecond: ordering falls back to the id.
      files.push(await t.store.files.put({ bytes: new Uint8Array([7]), contentType: 'image/gif', filename: 'a.gif' }))
      files.push(await t.store.files.put({ bytes: new Uint8Array([8]), contentType: 'image/gif', filename: 'b.gif' }))
      const end = later(files[4]!.createdAt)
      const all = await t.store.files.list({ createdBefore: end, limit: 10 })
      const paged: StoredFile[] = []
      let after: StoredFile | undefined
      for (;;) {
        const page = await t.store.files.list({ createdBefore: end, limit: 2, after })
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
      const a = await t.store.wumpuses.insert(sampleWumpus())
      const aIds = fileIds(a.files)
      expect(await inUse(t.store, aIds)).toEqual([true, true, true])
      const b = await t.store.wumpuses.insert(sampleWumpus())
      const bIds = fileIds(b.files)
      expect(await inUse(t.store, bIds)).toEqual([true, true, true])

      // a gets a new GIF and Lottie and keeps its APNG.
      const fresh = sampleFiles()
      const replaced = { gif: fresh.gif, apng: a.files.apng, lottie: fresh.lottie }
      expect(await t.store.wumpuses.update(a._id, { files: replaced })).toBeDefined()
      expect(await inUse(t.store, fileIds(replaced))).toEqual([true, true, true])
      expect(await t.store.wumpuses.usesFile(a.files.lottie.id)).toBe(false)
      expect(await t.store.wumpuses.usesFile(a.files.gif.id)).toBe(false)
      await t.store.wumpuses.update(a._id, { name: 'Renamed' })
      expect(await inUse(t.store, fileIds(replaced))).toEqual([true, true, true])
      // A file let go of can be claimed by another record.
      expect((await t.store.wumpuses.update(b._id, { files: { ...b.files, gif: a.files.gif } }))?.files.gif).toEqual(a.files.gif)

      expect(await t.store.wumpuses.delete(b._id)).toBe(1)
      expect(await inUse(t.store, [...bIds.slice(1), a.files.gif.id])).toEqual([false, false, false])
      expect(await inUse(t.store, fileIds(replaced))).toEqual([true, true, true])
      expect(await t.store.wumpuses.delete(a._id)).toBe(1)
      expect((await inUse(t.store, [...aIds, ...fileIds(replaced)])).some(Boolean)).toBe(false)
    })

    it('lets a file belong to one record only, on insert and on update, even when writes race', async () => {
      const a = await t.store.wumpuses.insert(sampleWumpus())
      for (const format of ['gif', 'apng', 'lottie'] as const) {
        await expect(
          t.store.wumpuses.insert(sampleWumpus({ files: { ...sampleFiles(), [format]: a.files[format] } })),
        ).rejects.toBeInstanceOf(FileInUseError)
      }
      const b = await t.store.wumpuses.insert(sampleWumpus())
      await expect(t.store.wumpuses.update(b._id, { files: { ...b.files, lottie: a.files.lottie } })).rejects.toBeInstanceOf(FileInUseError)
      expect(await t.store.wumpuses.get(b._id)).toEqual(b)
      expect(await t.store.wumpuses.count()).toBe(2)

      // Two records racing for one new file: exactly one gets it.
      const shared = sampleFiles().gif
      const racing = await Promise.allSettled(
        [0, 1, 2].map(() => t.store.wumpuses.insert(sampleWumpus({ files: { ...sampleFiles(), gif: shared } }))),
      )
      expect(racing.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
      for (const refused of racing.filter((r) => r.status === 'rejected')) expect(refused.reason).toBeInstanceOf(FileInUseError)
      expect(await t.store.wumpuses.count()).toBe(3)
      // A refused write claims nothing: the files it named are free.
      const refusedFiles = sampleFiles()
      await expect(t.store.wumpuses.insert(sampleWumpus({ files: { ...refusedFiles, apng: a.files.apng } }))).rejects.toBeInstanceOf(
        FileInUseError,
      )
      expect(await inUse(t.store, [refusedFiles.gif.id, refusedFiles.lottie.id])).toEqual([false, false])
      await expect(t.store.wumpuses.insert(sampleWumpus({ files: refusedFiles }))).resolves.toBeDefined()
    })

    it('answers false for unknown and malformed ids and for record ids', async () => {
      const record = await t.store.wumpuses.insert(sampleWumpus())
      expect(await t.store.wumpuses.usesFile(record._id)).toBe(false)
      for (const id of [UNKNOWN_ID, ...MALFORMED_IDS]) expect(await t.store.wumpuses.usesFile(id)).toBe(false)
      // Even when a record refers to a malformed id.
      const odd = await t.store.wumpuses.insert(
        sampleWumpus({ files: { ...sampleFiles(), gif: { id: 'ABCDEFABCDEFABCDEFABCDEF', filename: 'x.gif' } } }),
      )
      expect(await t.store.wumpuses.usesFile(odd.files.gif.id)).toBe(false)
      expect(await t.store.wumpuses.usesFile(odd.files.apng.id)).toBe(true)
    })

    it('does not count a stored file as in use by itself', async () => {
      const file = await t.store.files.put({
        bytes: new Uint8Array([1]),
        contentType: 'image/gif',
        filename: 'x.gif',
        purpose: 'animation',
      })
      expect(await t.store.wumpuses.usesFile(file.id)).toBe(false)
      await t.store.wumpuses.insert(sampleWumpus({ files: { ...sampleFiles(), lottie: { id: file.id, filename: 'x.json' } } }))
      expect(await t.store.wumpuses.usesFile(file.id)).toBe(true)
    })
  })
}
