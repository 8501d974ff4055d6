/**
 * Group commit. The database runs with `synchronous = NORMAL`: a commit is written to the WAL file but not
 * synced, which takes SQLite microseconds instead of the milliseconds of an fsync that would hold up every
 * request. A write is acknowledged only once the WAL is synced, by one fdatasync (in libuv's thread pool,
 * off the event loop) that covers every commit made before it started: writes arriving together share it.
 * So a power cut loses no acknowledged write, as with `synchronous = FULL`, at a fraction of the cost.
 */
import { open, type FileHandle } from 'node:fs/promises'

export class CommitSync {
  /** Commits noted so far, and how many of them are known to be on disk. */
  private noted = 0
  private synced = 0
  private flushing: Promise<void> | undefined
  private handle: Promise<FileHandle> | undefined
  /**
   * The first failed sync. It stays: after a failed fsync the kernel may have dropped the pages it could not
   * write, and a later sync that succeeds would not bring them back, so no write is acknowledged again.
   */
  failure: Error | undefined

  constructor(
    private readonly walFile: string,
    /** Syncs a file's data to disk (fdatasync); replaced in tests. */
    private readonly syncData: (handle: FileHandle) => Promise<void> = (handle) => handle.datasync(),
  ) {}

  /** Resolves once every commit made until now is on disk; rejects when the disk refused to sync it. */
  async durable(): Promise<void> {
    if (this.failure !== undefined) throw this.failure
    const target = ++this.noted
    while (this.synced < target) {
      this.flushing ??= this.flush().finally(() => (this.flushing = undefined))
      await this.flushing
    }
  }

  async close(): Promise<void> {
    await this.flushing?.catch(() => undefined)
    const handle = await this.handle?.catch(() => undefined)
    this.handle = undefined
    await handle?.close()
  }

  private async flush(): Promise<void> {
    // Opened once: SQLite keeps its WAL file (the same file, restarted after checkpoints) while it is open.
    this.handle ??= open(this.walFile, 'r')
    try {
      const handle = await this.handle
      // Every commit noted before this point was written to the WAL before it was noted: this sync covers it.
      const upTo = this.noted
      await this.syncData(handle)
      this.synced = Math.max(this.synced, upTo)
    } catch (error) {
      this.failure ??= error instanceof Error ? error : new Error(String(error))
      throw error
    }
  }
}
