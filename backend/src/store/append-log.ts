/**
 * One collection of the embedded store on disk, in nedb's data file format: one JSON document per
 * line, a later line for the same `_id` replaces it, `{"$$deleted":true,"_id":…}` removes it, dates
 * are `{"$$date":ms}`. Existing data folders load unchanged, and nedb can still read what this writes.
 *
 * Unlike nedb, which appends each write on its own and lets the next one start only after that,
 * writes here are grouped: every line queued while one append is on its way goes in the next append,
 * and each write resolves once its line is in the file. So a burst of writes costs a few appends,
 * not one each (group commit). The file is rewritten compactly at start, at close, and whenever the
 * appended lines outnumber the documents by far; the rewrite goes to a temp file that replaces the
 * old one only once complete, so a crash leaves one or the other.
 */
import { open, readFile, rename, stat, type FileHandle } from 'node:fs/promises'
import path from 'node:path'

export interface LogDocument {
  _id: string
}

export interface AppendLogOptions<T> {
  /** The documents as they are now, for rewriting the file. Called synchronously. */
  snapshot: () => Iterable<T>
  /** How many documents there are now. */
  count: () => number
  /** nedb index lines to keep at the top of the file, so that nedb itself could still open it. */
  indexes?: { fieldName: string; unique?: boolean }[]
  fileMode?: number
  /** More corrupt lines than this share of the file stops the load (nedb's default, 10%). */
  corruptAlertThreshold?: number
}

interface Waiter {
  resolve: () => void
  reject: (error: unknown) => void
}

export class CorruptDataFileError extends Error {
  constructor(file: string, corrupt: number, total: number) {
    super(`${file}: ${corrupt} of ${total} lines cannot be read; refusing to start on damaged data`)
    this.name = 'CorruptDataFileError'
  }
}

export class AppendLog<T extends LogDocument> {
  private pending: string[] = []
  private waiters: Waiter[] = []
  private flushing: Promise<void> | null = null
  private appendedSinceCompaction = 0
  private compactRequested = false
  private failure: unknown

  private constructor(
    private readonly file: string,
    private handle: FileHandle,
    private readonly options: AppendLogOptions<T>,
  ) {}

  /** Reads the file (if any) into documents, rewrites it compactly, and opens it for appending. */
  static async open<T extends LogDocument>(
    file: string,
    options: AppendLogOptions<T> & { load: (docs: T[]) => void },
  ): Promise<AppendLog<T>> {
    const temp = `${file}~`
    // A crash during a rewrite may leave only the temp file (nedb does the same check).
    if (!(await exists(file)) && (await exists(temp))) await rename(temp, file)
    const text = (await exists(file)) ? await readFile(file, 'utf8') : ''
    options.load(parseLines(file, text, options.corruptAlertThreshold ?? 0.1))
    const log = new AppendLog<T>(file, await open(file, 'a', options.fileMode), options)
    await log.compact()
    return log
  }

  /** Writes the document (new or replaced); resolves once the line is in the file. */
  put(doc: T): Promise<void> {
    return this.enqueue(serialize(doc))
  }

  remove(id: string): Promise<void> {
    return this.enqueue(serialize({ $$deleted: true, _id: id }))
  }

  /** Throws the error of a failed append, if any: the file no longer follows the documents. */
  assertHealthy(): void {
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows what the failed append threw
    if (this.failure) throw this.failure
  }

  /** Rewrites the file with the documents as they are now. */
  async compact(): Promise<void> {
    this.compactRequested = true
    await this.enqueue(null)
  }

  async close(): Promise<void> {
    await this.compact()
    await this.handle.close()
  }

  /** Queues a line (or only a turn, for a compaction) and resolves once it is on disk. */
  private enqueue(line: string | null): Promise<void> {
    return new Promise((resolve, reject) => {
      if (line !== null) this.pending.push(line)
      this.waiters.push({ resolve, reject })
      this.flushing ??= this.flush()
    })
  }

  private async flush(): Promise<void> {
    while (this.waiters.length > 0) {
      // Taken in one go with the snapshot below: the snapshot holds exactly these lines' effects.
      const lines = this.pending.splice(0)
      const waiters = this.waiters.splice(0)
      const compacting = this.compactRequested || this.appendedSinceCompaction + lines.length > Math.max(10_000, 2 * this.options.count())
      try {
        if (compacting) {
          this.compactRequested = false
          await this.rewrite([...this.options.snapshot()])
          this.appendedSinceCompaction = 0
        } else if (lines.length > 0) {
          await this.handle.appendFile(lines.join(''))
          this.appendedSinceCompaction += lines.length
        }
        for (const waiter of waiters) waiter.resolve()
      } catch (error) {
        this.failure = error
        for (const waiter of waiters) waiter.reject(error)
      }
    }
    this.flushing = null
  }

  private async rewrite(docs: T[]): Promise<void> {
    const temp = `${this.file}~`
    const indexLines = (this.options.indexes ?? []).map((index) =>
      serialize({ $$indexCreated: { fieldName: index.fieldName, unique: index.unique ?? false, sparse: false } }),
    )
    const out = await open(temp, 'w', this.options.fileMode)
    try {
      await out.writeFile([...indexLines, ...docs.map(serialize)].join(''))
      await out.sync()
    } finally {
      await out.close()
    }
    await this.handle.close()
    await rename(temp, this.file)
    await syncDirectory(path.dirname(this.file))
    this.handle = await open(this.file, 'a', this.options.fileMode)
  }
}

/** nedb's line format: JSON with dates as {"$$date": ms}. */
function serialize(doc: object): string {
  return (
    JSON.stringify(doc, function (this: Record<string, unknown>, key, value) {
      const original = this[key]
      return original instanceof Date ? { $$date: original.getTime() } : value
    }) + '\n'
  )
}

function parseLines<T extends LogDocument>(file: string, text: string, threshold: number): T[] {
  const docs = new Map<string, T>()
  const lines = text.split('\n')
  // What follows the last newline is empty, or a line a crash cut short: kept only if it reads whole.
  const last = lines.pop() ?? ''
  let corrupt = 0
  const apply = (line: string): boolean => {
    let doc: Record<string, unknown>
    try {
      doc = JSON.parse(line, (_key, value: unknown) =>
        value !== null &&
        typeof value === 'object' &&
        typeof (value as { $$date?: unknown }).$$date === 'number' &&
        Object.keys(value).length === 1
          ? new Date((value as { $$date: number }).$$date)
          : value,
      ) as Record<string, unknown>
    } catch {
      return false
    }
    if (doc.$$deleted === true && typeof doc._id === 'string') docs.delete(doc._id)
    else if ('$$indexCreated' in doc || '$$indexRemoved' in doc) return true
    else if (typeof doc._id === 'string') docs.set(doc._id, doc as T)
    else return false
    return true
  }
  for (const line of lines) if (line !== '' && !apply(line)) corrupt++
  if (last !== '') apply(last)
  if (lines.length > 0 && corrupt / lines.length > threshold) throw new CorruptDataFileError(file, corrupt, lines.length)
  return [...docs.values()]
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  )
}

/** Makes a rename durable: the directory entry itself is flushed. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => undefined)
  if (!handle) return
  try {
    await handle.sync()
  } catch {
    // Some file systems cannot fsync a directory; the rename is then as durable as they make it.
  } finally {
    await handle.close()
  }
}
