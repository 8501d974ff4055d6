// Writes a signed-in user makes on this device (favourites, personal pack edits, notifications marked read) go
// through this queue: the app shows them at once, they are kept in IndexedDB, and they are sent in order when
// the server can be reached (now, when the connection returns, or at the next start). Each user has their own
// queue; only the signed-in user's is sent, with their session.
import { createStore, get, update, type UseStore } from 'idb-keyval'
import { apiRequest, isApiError, type ApiError, type ResponseParser } from '../api-client'

export interface QueuedWrite {
  /** Order of the writes on this device. */
  seq: number
  /** PUT and DELETE replace; a POST here must be one that may be sent twice (marking notifications read). */
  method: 'PUT' | 'DELETE' | 'POST'
  path: string
  body?: unknown
  /**
   * Writes with the same key replace one another while queued (favouriting then unfavouriting the same
   * sticker offline sends only the last), so keys must name writes that fully replace each other.
   */
  key: string
  /** What it does, for messages: `Favourite “Waving Wumpus”`. */
  label: string
  queuedAt: number
}

export type NewWrite = Omit<QueuedWrite, 'seq' | 'queuedAt'>

export type OutboxEvent =
  | { type: 'changed'; email: string }
  /** The server took it: `body` is its JSON answer (undefined for 204). */
  | { type: 'sent'; email: string; write: QueuedWrite; body: unknown }
  /** The server refused it for good (4xx other than 401, 408 and 429): it is dropped. */
  | { type: 'refused'; email: string; write: QueuedWrite; error: ApiError }

let db: UseStore | undefined
const outboxStore = () => (db ??= createStore('outbox', 'outbox'))
const listeners = new Set<(event: OutboxEvent) => void>()

export function onOutboxEvent(listener: (event: OutboxEvent) => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

function emit(event: OutboxEvent): void {
  for (const listener of listeners) listener(event)
}

/** The user's writes not confirmed yet, oldest first. */
export async function pendingWrites(email: string): Promise<QueuedWrite[]> {
  return (await get<QueuedWrite[]>(email, outboxStore())) ?? []
}

/** Queues a write for the user (replacing a queued one with the same key) and tries to send the queue. */
export async function queueWrite(email: string, write: NewWrite): Promise<void> {
  await update<QueuedWrite[]>(
    email,
    (queue = []) => {
      const seq = queue.reduce((max, queued) => Math.max(max, queued.seq), 0) + 1
      return [...queue.filter((queued) => queued.key !== write.key), { ...write, seq, queuedAt: Date.now() }]
    },
    outboxStore(),
  )
  emit({ type: 'changed', email })
  void sendQueuedWrites(email)
}

async function removeWrite(email: string, seq: number): Promise<void> {
  await update<QueuedWrite[]>(email, (queue = []) => queue.filter((queued) => queued.seq !== seq), outboxStore())
}

/** Forgets every queued write (sign-out: the queue belongs to the session's user). */
export async function forgetQueuedWrites(email?: string): Promise<void> {
  if (email) await update<QueuedWrite[]>(email, () => [], outboxStore())
  else await import('idb-keyval').then(({ clear }) => clear(outboxStore()))
}

/** Answers that mean "try again later": no connection, no session, too many requests, or a server trouble. */
const retryLater = (error: ApiError) =>
  error.status === 0 || error.status === 401 || error.status === 408 || error.status === 429 || error.status >= 500

/** Takes any answer: each write's caller reads its own (a 204 answers undefined). */
const anyAnswer: ResponseParser<unknown> = { safeParse: (body) => ({ success: true, data: body }) }

let sending: Promise<void> | undefined
/** A write queued while the queue was being sent, maybe after the sender found it empty. */
let queuedMeanwhile = false

/**
 * Sends the user's queue in order, one write at a time, until it is empty or a write must wait (then the
 * rest wait behind it, so the order holds). One sender at a time across this browser's tabs.
 */
export function sendQueuedWrites(email: string): Promise<void> {
  if (sending) {
    queuedMeanwhile = true
    return sending
  }
  queuedMeanwhile = false
  const run = async () => {
    for (;;) {
      const [write] = await pendingWrites(email)
      if (!write) return
      try {
        const body = await apiRequest(write.path, anyAnswer, { method: write.method, body: write.body })
        await removeWrite(email, write.seq)
        emit({ type: 'sent', email, write, body })
      } catch (error) {
        if (!isApiError(error) || retryLater(error)) return
        await removeWrite(email, write.seq)
        emit({ type: 'refused', email, write, error })
      }
      emit({ type: 'changed', email })
    }
  }
  const locked = () => (navigator.locks ? navigator.locks.request(`outbox:${email}`, run) : run())
  sending = locked().finally(() => {
    sending = undefined
    if (queuedMeanwhile) void sendQueuedWrites(email)
  })
  return sending
}
