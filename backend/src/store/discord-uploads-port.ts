/**
 * The store's part of "Add to my Discord server" (services/discord-uploads.ts): upload jobs, kept apart from
 * port.ts (which holds only the repository's place in Store). One job fills one Discord server with one pack.
 */

export type DiscordUploadState = 'waiting' | 'uploading' | 'done' | 'failed'
export type DiscordItemKind = 'sticker' | 'emoji'

/** What a job sent (or found on the server under its name after a crash mid-call). */
export interface DiscordUploaded {
  wumpusId: string
  kind: DiscordItemKind
  name: string
  /** Discord's id of the sticker or emoji. */
  discordId: string
  /** Bytes of the file sent; 0 when found there rather than sent by this run. */
  bytes: number
}

/** What the job did not put on the server, and why in words. */
export interface DiscordNotFitted {
  wumpusId: string
  kind: DiscordItemKind
  name: string
  reason: string
}

export interface DiscordUploadRecord {
  id: string
  /** SHA-256 (hex) of the OAuth2 state the job was made with: each state makes one job. */
  stateHash: string
  /** The account that asked (its email): only they read the job. */
  account: string
  packId: string
  guildId: string
  state: DiscordUploadState
  /** Why it failed, or (while waiting) why it waits. */
  reason?: string
  /** The server's boost tier, once read. */
  tier?: number
  uploaded: DiscordUploaded[]
  notFitted: DiscordNotFitted[]
  /** Sent in a call whose answer was not recorded yet (a crash mid-call): looked for on the server by name. */
  pending?: Pick<DiscordUploaded, 'wumpusId' | 'kind' | 'name'>
  createdAt: Date
  updatedAt: Date
}

export type NewDiscordUpload = Pick<DiscordUploadRecord, 'id' | 'stateHash' | 'account' | 'packId' | 'guildId'> & { now: Date }

/** A job held by one server instance until its lease ends. */
export interface DiscordUploadJob {
  record: DiscordUploadRecord
  owner: string
  leaseUntil: Date
}

/** What a run found out, saved as it goes while the owner holds the job. */
export type DiscordUploadProgress = Pick<DiscordUploadRecord, 'tier' | 'uploaded' | 'notFitted' | 'pending'>

/**
 * How a run ended: done, failed (with a reason), or to be tried again at `retryAt` (waiting, with a reason).
 * `keepsTurn`: the job stays first and every job waits until `retryAt` (Discord's 429: its limits are the bot's);
 * otherwise it gives up its turn and ready jobs run meanwhile (Discord unreachable or failing: this job backs off).
 */
export type DiscordUploadOutcome =
  { state: 'done' } | { state: 'failed'; reason: string } | { retryAt: Date; reason: string; keepsTurn: boolean }

/**
 * Upload jobs, one at a time across instances (the bot's rate limits are the bot's, whoever asked): only the
 * queue's first job is ever claimed, with a lease like render jobs, and another instance takes it over once a
 * holder's lease ends. The queue is in the order jobs became ready: a job with no retry time (new, running, or
 * keeping its turn through a 429) when it was made, a job backing off at its retry time. So a job backing off
 * does not hold the others, and once its retry time has passed it goes before the jobs made after that time
 * (a steady stream of new jobs does not keep it waiting); the job claimed stays first while it is held.
 */
export interface DiscordUploadRepository {
  /** Makes a job ('waiting'); undefined when a job was made with this state already (a state is used once). */
  create(job: NewDiscordUpload): Promise<DiscordUploadRecord | undefined>
  get(id: string): Promise<DiscordUploadRecord | undefined>
  /** Whether a job was made with this state's hash (the callback asks before spending Discord's code). */
  hasState(stateHash: string): Promise<boolean>
  /** Claims the queue's first job when its lease is free or ended and its retry time has come; it becomes 'uploading' and loses its retry time. */
  claim(options: { owner: string; leaseMs: number; now: Date }): Promise<DiscordUploadJob | undefined>
  /** Extends the lease to `until`; answers whether the owner still holds it. */
  renew(job: DiscordUploadJob, until: Date): Promise<boolean>
  /** Saves progress while the owner holds the job; answers whether it did. */
  save(job: DiscordUploadJob, progress: DiscordUploadProgress, now: Date): Promise<boolean>
  /** Ends the lease when the owner still holds it (answers whether it did). */
  finish(job: DiscordUploadJob, outcome: DiscordUploadOutcome, now: Date): Promise<boolean>
  /** The earliest time a waiting job is due (a retry time or the end of a kept turn), for the worker's timer. */
  nextRetry(): Promise<Date | undefined>
}
