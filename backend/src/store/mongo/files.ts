/** Stored files in MongoDB: GridFS (`files.files` and `files.chunks`), with what is known of each in its metadata. */
import { createHash } from 'node:crypto'
import type { Readable } from 'node:stream'
import { GridFSBucket, ObjectId, type Collection, type Db, type Filter } from 'mongodb'
import { isId, newId } from '../ids'
import type { FilePurpose, FileRepository, NewFile, StoredFile } from '../port'
import { fileLabels, toStoredFile, WUMPUS_FILE_ID_PATHS } from '../records'
import { guard } from './errors'

interface GridFile {
  _id: ObjectId
  length: number
  uploadDate: Date
  filename: string
  /** owner and purpose are missing on files stored before they existed. */
  metadata?: { contentType?: string; filename?: string; sha256?: string; owner?: string; purpose?: string }
}

export const BUCKET = 'files'
export const OLDEST_UPLOAD_FIRST = { uploadDate: 1, _id: 1 } as const
/** File ids checked and removed at a time by the stray-chunk sweep. */
export const SWEEP_BATCH = 1000

function fromGridFile(doc: GridFile): StoredFile {
  return toStoredFile({
    id: doc._id.toHexString(),
    contentType: doc.metadata?.contentType ?? 'application/octet-stream',
    filename: doc.metadata?.filename ?? doc.filename,
    size: doc.length,
    sha256: doc.metadata?.sha256 ?? '',
    createdAt: doc.uploadDate,
    ...fileLabels(doc.metadata ?? {}),
  })
}

export class MongoFiles implements FileRepository {
  private readonly files: Collection<GridFile>
  private readonly chunks: Collection<{ files_id: ObjectId }>
  private readonly bucket: GridFSBucket
  /** Read by the orphan sweep only: which of a page of files some animation refers to. */
  private readonly wumpuses: Collection<Record<string, unknown>>

  constructor(db: Db) {
    this.files = db.collection<GridFile>(`${BUCKET}.files`)
    this.wumpuses = db.collection('wumpuses')
    this.chunks = db.collection<{ files_id: ObjectId }>(`${BUCKET}.chunks`)
    this.bucket = new GridFSBucket(db, { bucketName: BUCKET })
  }

  async put(file: NewFile): Promise<StoredFile> {
    const id = newId()
    const sha256 = createHash('sha256').update(file.bytes).digest('hex')
    const metadata = { contentType: file.contentType, filename: file.filename, sha256, ...fileLabels(file) }
    const upload = this.bucket.openUploadStreamWithId(new ObjectId(id), file.filename, { metadata })
    await guard(
      () =>
        new Promise<void>((resolve, reject) => {
          upload.once('error', reject)
          upload.once('finish', () => resolve())
          upload.end(file.bytes)
        }),
    )
    return toStoredFile({
      id,
      contentType: file.contentType,
      filename: file.filename,
      size: file.bytes.length,
      sha256,
      createdAt: upload.gridFSFile?.uploadDate ?? new Date(),
      ...fileLabels(file),
    })
  }

  async info(id: string): Promise<StoredFile | undefined> {
    if (!isId(id)) return undefined
    const doc = await guard(() => this.files.findOne({ _id: new ObjectId(id) }))
    return doc ? fromGridFile(doc) : undefined
  }

  async read(id: string): Promise<{ info: StoredFile; bytes: Uint8Array } | undefined> {
    const info = await this.info(id)
    if (!info) return undefined
    const bytes = await guard(async () => {
      const parts: Buffer[] = []
      for await (const part of this.bucket.openDownloadStream(new ObjectId(id))) parts.push(part as Buffer)
      return Buffer.concat(parts)
    })
    return { info, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) }
  }

  async stream(id: string): Promise<{ info: StoredFile; body: Readable } | undefined> {
    const info = await this.info(id)
    return info && { info, body: this.bucket.openDownloadStream(new ObjectId(id)) }
  }

  async delete(id: string): Promise<boolean> {
    if (!isId(id)) return false
    const fileId = new ObjectId(id)
    return guard(async () => {
      const { deletedCount } = await this.files.deleteOne({ _id: fileId })
      await this.chunks.deleteMany({ files_id: fileId })
      return deletedCount === 1
    })
  }

  async list(options: Parameters<FileRepository['list']>[0]): Promise<StoredFile[]> {
    const limit = Math.floor(options.limit)
    // The driver reads a limit of 0 as "no limit".
    if (!(limit >= 1)) return []
    const docs = await guard(() => this.files.find(oldestFilter(options)).sort(OLDEST_UPLOAD_FIRST).limit(limit).toArray())
    return docs.map(fromGridFile)
  }

  /**
   * A page of files by age and, of them, those the sweep may remove: animation and derived files no
   * animation refers to (one `distinct` per place an animation keeps file ids, over the page's ids only:
   * a few commands a page, not one per file), and every profile image.
   */
  async listSweepCandidates(
    options: Parameters<NonNullable<FileRepository['listSweepCandidates']>>[0],
  ): ReturnType<NonNullable<FileRepository['listSweepCandidates']>> {
    const limit = Math.floor(options.limit)
    if (!(limit >= 1)) return { candidates: [] }
    const docs = await guard(() =>
      this.files
        .find(oldestFilter(options), { projection: { _id: 1, uploadDate: 1, 'metadata.purpose': 1 } })
        .sort(OLDEST_UPLOAD_FIRST)
        .limit(limit)
        .toArray(),
    )
    const last = docs.at(-1)
    if (!last) return { candidates: [] }
    const page = docs.map((doc) => ({ id: doc._id.toHexString(), purpose: fileLabels(doc.metadata ?? {}).purpose }))
    const checked = new Set(page.filter(({ purpose }) => purpose === 'animation' || purpose === 'derived').map(({ id }) => id))
    const used = new Set<unknown>()
    for (const path of checked.size > 0 ? WUMPUS_FILE_ID_PATHS : []) {
      for (const id of await guard(() => this.wumpuses.distinct(path, { [path]: { $in: [...checked] } }))) used.add(id)
    }
    const candidates = page.filter(({ id, purpose }) => purpose === 'image' || (checked.has(id) && !used.has(id)))
    return { last: { createdAt: last.uploadDate, id: last._id.toHexString() }, candidates }
  }

  async listByOwner(owner: string, purpose: FilePurpose): Promise<StoredFile[]> {
    const docs = await guard(() =>
      this.files.find({ 'metadata.owner': owner, 'metadata.purpose': purpose }).sort(OLDEST_UPLOAD_FIRST).toArray(),
    )
    return docs.map(fromGridFile)
  }

  /**
   * Chunks whose files_id has no file document, uploaded before `createdBefore`: their ids grouped in the
   * database (allowDiskUse, answered as a cursor of one document per id, so no 16 MB result cap as with
   * `distinct`), checked against the file documents and removed a batch of SWEEP_BATCH ids at a time.
   */
  async sweepStrayBlobs(createdBefore: Date): Promise<number> {
    return guard(async () => {
      const before = ObjectId.createFromTime(Math.floor(createdBefore.getTime() / 1000))
      const ids = this.chunks.aggregate<{ _id: ObjectId }>([{ $match: { files_id: { $lt: before } } }, { $group: { _id: '$files_id' } }], {
        allowDiskUse: true,
        batchSize: SWEEP_BATCH,
      })
      let removed = 0
      let batch: ObjectId[] = []
      const sweep = async () => {
        const recorded = new Set(
          (await this.files.find({ _id: { $in: batch } }, { projection: { _id: 1 } }).toArray()).map((doc) => doc._id.toHexString()),
        )
        const stray = batch.filter((id) => !recorded.has(id.toHexString()))
        if (stray.length > 0) await this.chunks.deleteMany({ files_id: { $in: stray } })
        removed += stray.length
        batch = []
      }
      for await (const { _id } of ids) {
        batch.push(_id)
        if (batch.length === SWEEP_BATCH) await sweep()
      }
      if (batch.length > 0) await sweep()
      return removed
    })
  }
}

/** Files uploaded before `createdBefore`, after `after` in upload order. */
function oldestFilter({ createdBefore, after }: { createdBefore: Date; after?: Pick<StoredFile, 'createdAt' | 'id'> }): Filter<GridFile> {
  if (!after) return { uploadDate: { $lt: createdBefore } }
  return {
    uploadDate: { $lt: createdBefore },
    $or: [{ uploadDate: { $gt: after.createdAt } }, { uploadDate: after.createdAt, _id: { $gt: ObjectId.createFromHexString(after.id) } }],
  }
}
