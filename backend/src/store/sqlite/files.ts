/**
 * Stored files: what is known of each in the `files` table, the bytes in DATA_DIR/files/<id>. Bytes are
 * written to `files/.incoming`, synced, and renamed into place before their row is committed, so a crash
 * leaves either nothing or bytes without a row (removed by sweepStrayBlobs), never a row without bytes.
 */
import { createHash, randomBytes } from 'node:crypto'
import { open, opendir, readFile, rename, rm, stat, unlink, mkdir } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { setImmediate as yieldToEvents } from 'node:timers/promises'
import { isId, newId } from '../ids'
import type { FilePurpose, FileRepository, NewFile, StoredFile } from '../port'
import { fileLabels, toStoredFile } from '../records'
import { guarded, type Db } from './database'

interface FileRow {
  id: string
  content_type: string
  filename: string
  size: number
  sha256: string
  created_at: number
  owner: string | null
  purpose: string | null
}

function fromRow(row: FileRow): StoredFile {
  return toStoredFile({
    id: row.id,
    contentType: row.content_type,
    filename: row.filename,
    size: row.size,
    sha256: row.sha256,
    createdAt: new Date(row.created_at),
    ...fileLabels({ owner: row.owner ?? undefined, purpose: row.purpose ?? undefined }),
  })
}

function toFileRow(file: StoredFile): FileRow {
  return {
    id: file.id,
    content_type: file.contentType,
    filename: file.filename,
    size: file.size,
    sha256: file.sha256,
    created_at: file.createdAt.getTime(),
    owner: file.owner ?? null,
    purpose: file.purpose ?? null,
  }
}

const INCOMING = '.incoming'
/** Names of the temp files of the store before SQLite (`<id>.<random>.tmp`), left by a crash. */
const OLD_TEMP = /^[0-9a-f]{24}\.[0-9a-f]+\.tmp$/
const PRIVATE_FILE = 0o600
/** Bytes read from disk at a time when a file is streamed. */
const STREAM_CHUNK = 64 * 1024

export class SqliteFiles implements FileRepository {
  private readonly bytesCache = new FileBytesCache()
  /** While a backup copies files, deleted files keep their bytes until it ends (its database copy may still list them). */
  private holds = 0
  private heldUnlinks: string[] = []
  private readonly incomingDir: string
  private readonly sql

  constructor(
    private readonly db: Db,
    private readonly filesDir: string,
  ) {
    this.incomingDir = path.join(filesDir, INCOMING)
    this.sql = {
      insert: db.prepare(
        `INSERT INTO files (id, content_type, filename, size, sha256, created_at, owner, purpose)
         VALUES (@id, @content_type, @filename, @size, @sha256, @created_at, @owner, @purpose)`,
      ),
      get: db.prepare<[string], FileRow>('SELECT * FROM files WHERE id = ?'),
      delete: db.prepare<[string]>('DELETE FROM files WHERE id = ?'),
      oldest: db.prepare<[number, number], FileRow>('SELECT * FROM files WHERE created_at < ? ORDER BY created_at, id LIMIT ?'),
      oldestAfter: db.prepare<[number, number, string, number], FileRow>(
        'SELECT * FROM files WHERE created_at < ? AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?',
      ),
      // One page of the orphan sweep: every file of the page with whether it is a candidate (an unused
      // animation or derived file, a profile image), the claims looked up by wumpus_files' key.
      sweepPage: db.prepare<[number, number, string, number], [string, number, string | null, number]>(
        `SELECT f.id, f.created_at, f.purpose,
         f.purpose = 'image' OR (f.purpose IN ('animation', 'derived') AND NOT EXISTS (SELECT 1 FROM wumpus_files c WHERE c.file_id = f.id))
         FROM files f WHERE f.created_at < ? AND (f.created_at, f.id) > (?, ?) ORDER BY f.created_at, f.id LIMIT ?`,
      ),
      images: db.prepare<[string], FileRow>("SELECT * FROM files WHERE owner = ? AND purpose = 'image' ORDER BY created_at, id"),
      // Other purposes are never listed by owner; answered, but without an index of their own.
      byOwner: db.prepare<[string, string], FileRow>('SELECT * FROM files WHERE owner = ? AND purpose = ? ORDER BY created_at, id'),
    }
  }

  /** Empties the folder of bytes a crash left half-written. */
  async prepare(): Promise<void> {
    await rm(this.incomingDir, { recursive: true, force: true })
    await mkdir(this.incomingDir, { mode: 0o700 })
  }

  put(file: NewFile): Promise<StoredFile> {
    return guarded(async () => {
      const now = new Date()
      const id = newId(now.getTime())
      await this.writeBytes(id, file.bytes)
      const stored = toStoredFile({
        id,
        contentType: file.contentType,
        filename: file.filename,
        size: file.bytes.length,
        sha256: createHash('sha256').update(file.bytes).digest('hex'),
        createdAt: now,
        ...fileLabels(file),
      })
      this.sql.insert.run(toFileRow(stored))
      return stored
    })
  }

  /** Stores a file's record as it is (an import of older data; its bytes are in the folder already). */
  restore(file: StoredFile): void {
    this.sql.insert.run(toFileRow(file))
  }

  info(id: string): Promise<StoredFile | undefined> {
    return guarded(() => {
      const row = isId(id) ? this.sql.get.get(id) : undefined
      return row && fromRow(row)
    })
  }

  read(id: string): Promise<{ info: StoredFile; bytes: Uint8Array } | undefined> {
    return guarded(async () => {
      const row = isId(id) ? this.sql.get.get(id) : undefined
      if (!row) return undefined
      const info = fromRow(row)
      const cached = this.bytesCache.get(id)
      if (cached) return { info, bytes: cached }
      try {
        const read = await readFile(this.pathOf(id))
        const bytes = new Uint8Array(read.buffer, read.byteOffset, read.byteLength)
        // Deleted while it was being read: not worth keeping.
        if (this.sql.get.get(id)) this.bytesCache.set(id, bytes)
        return { info, bytes }
      } catch (error) {
        if (isMissing(error)) return undefined
        throw error
      }
    })
  }

  /** Small files come from (and go to) the bytes cache; larger ones are read from disk as they are sent. */
  stream(id: string): Promise<{ info: StoredFile; body: Readable } | undefined> {
    return guarded(async () => {
      const row = isId(id) ? this.sql.get.get(id) : undefined
      if (!row) return undefined
      if (row.size <= this.bytesCache.maxFileBytes) {
        const file = await this.read(id)
        if (!file) return undefined
        const bytes = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength)
        return { info: file.info, body: Readable.from([bytes], { objectMode: false }) }
      }
      try {
        // Opened here, so a file gone from disk is unknown rather than a stream that fails once sent.
        const handle = await open(this.pathOf(id), 'r')
        return { info: fromRow(row), body: handle.createReadStream({ highWaterMark: STREAM_CHUNK }) }
      } catch (error) {
        if (isMissing(error)) return undefined
        throw error
      }
    })
  }

  delete(id: string): Promise<boolean> {
    return guarded(async () => {
      if (!isId(id)) return false
      const known = this.sql.delete.run(id).changes > 0
      this.bytesCache.delete(id)
      await this.unlinkBytes(id)
      return known
    })
  }

  list(options: { createdBefore: Date; limit: number; after?: Pick<StoredFile, 'createdAt' | 'id'> }): Promise<StoredFile[]> {
    return guarded(() => {
      const limit = Math.floor(options.limit)
      if (!(limit >= 1)) return []
      const before = options.createdBefore.getTime()
      const { after } = options
      const rows = after ? this.sql.oldestAfter.all(before, after.createdAt.getTime(), after.id, limit) : this.sql.oldest.all(before, limit)
      return rows.map(fromRow)
    })
  }

  listSweepCandidates(options: {
    createdBefore: Date
    limit: number
    after?: Pick<StoredFile, 'createdAt' | 'id'>
  }): Promise<{ last?: Pick<StoredFile, 'createdAt' | 'id'>; candidates: Array<Pick<StoredFile, 'id' | 'purpose'>> }> {
    return guarded(() => {
      const limit = Math.floor(options.limit)
      if (!(limit >= 1)) return { candidates: [] }
      const { after } = options
      const rows = this.sql.sweepPage
        .raw()
        .all(options.createdBefore.getTime(), after ? after.createdAt.getTime() : Number.MIN_SAFE_INTEGER, after?.id ?? '', limit)
      const lastRow = rows.at(-1)
      const candidates = rows.flatMap(([id, , purpose, candidate]) => (candidate ? [{ id, purpose: purpose as FilePurpose }] : []))
      return lastRow ? { last: { createdAt: new Date(lastRow[1]), id: lastRow[0] }, candidates } : { candidates }
    })
  }

  listByOwner(owner: string, purpose: FilePurpose): Promise<StoredFile[]> {
    return guarded(() => (purpose === 'image' ? this.sql.images.all(owner) : this.sql.byOwner.all(owner, purpose)).map(fromRow))
  }

  /** Walks the folder a batch at a time (it may hold a million files), yielding between batches. */
  sweepStrayBlobs(createdBefore: Date): Promise<number> {
    return guarded(async () => {
      let removed = 0
      let batch: string[] = []
      const sweep = async () => {
        const known = new Set(
          this.db
            .prepare<string[], { id: string }>(`SELECT id FROM files WHERE id IN (${batch.map(() => '?').join(', ')})`)
            .all(...batch)
            .map((row) => row.id),
        )
        for (const name of batch) {
          if (known.has(name)) continue
          const file = this.pathOf(name)
          const written = await stat(file).then(
            (info) => info.mtimeMs,
            () => Infinity,
          )
          // Checked again after the await: a put may have recorded it meanwhile.
          if (written < createdBefore.getTime() && (OLD_TEMP.test(name) || !this.sql.get.get(name))) {
            await this.unlinkBytes(name).catch(() => undefined)
            removed++
          }
        }
        batch = []
        await yieldToEvents()
      }
      for await (const entry of await opendir(this.filesDir, { bufferSize: 256 })) {
        if (!entry.isFile() || !(isId(entry.name) || OLD_TEMP.test(entry.name))) continue
        batch.push(entry.name)
        if (batch.length === 500) await sweep()
      }
      if (batch.length > 0) await sweep()
      return removed
    })
  }

  /** Keeps stored bytes on disk until the answer is called (then the deletes held meanwhile run). */
  holdDeletes(): () => Promise<void> {
    this.holds++
    let released = false
    return async () => {
      if (released) return
      released = true
      if (--this.holds > 0) return
      const held = this.heldUnlinks
      this.heldUnlinks = []
      for (const id of held) await this.unlinkBytes(id).catch(() => undefined)
    }
  }

  private async unlinkBytes(id: string): Promise<void> {
    if (this.holds > 0) {
      this.heldUnlinks.push(id)
      return
    }
    await unlink(this.pathOf(id)).catch((error: unknown) => {
      if (!isMissing(error)) throw error
    })
  }

  private async writeBytes(id: string, bytes: Uint8Array): Promise<void> {
    const temp = path.join(this.incomingDir, `${id}.${randomBytes(6).toString('hex')}`)
    try {
      const handle = await open(temp, 'wx', PRIVATE_FILE)
      try {
        await handle.writeFile(bytes)
        await handle.sync()
      } finally {
        await handle.close()
      }
      await rename(temp, this.pathOf(id))
    } catch (error) {
      await unlink(temp).catch(() => undefined)
      throw error
    }
    await syncDirectory(this.filesDir)
  }

  private pathOf(id: string): string {
    return path.join(this.filesDir, id)
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT'
}

/** Makes a rename durable: the directory entry itself is flushed. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } catch {
    // Some file systems cannot sync a directory; the rename is then as durable as they make it.
  } finally {
    await handle.close()
  }
}

/**
 * The bytes of recently read files, least recently used out first. Stored files never change, so a
 * cached copy is always right; the gallery's images are read over and over.
 */
class FileBytesCache {
  private readonly entries = new Map<string, Uint8Array>()
  private bytes = 0

  constructor(
    private readonly maxBytes = 64 * 1024 * 1024,
    readonly maxFileBytes = 1024 * 1024,
  ) {}

  get(id: string): Uint8Array | undefined {
    const bytes = this.entries.get(id)
    if (bytes) {
      this.entries.delete(id)
      this.entries.set(id, bytes)
    }
    return bytes
  }

  set(id: string, bytes: Uint8Array): void {
    if (bytes.length > this.maxFileBytes) return
    this.delete(id)
    this.entries.set(id, bytes)
    this.bytes += bytes.length
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break
      this.entries.delete(oldest)
      this.bytes -= old.length
    }
  }

  delete(id: string): void {
    const bytes = this.entries.get(id)
    if (!bytes) return
    this.entries.delete(id)
    this.bytes -= bytes.length
  }
}
