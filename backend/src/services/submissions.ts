// Submissions (issue 37): a person with a verified email sends a sticker (a Lottie JSON, a Telegram .tgs or a
// dotLottie, judged by its bytes with the caps of an admin's upload), edits or withdraws it while it waits or
// has changes asked, and admins publish it (through the animations' own publish, so its GIF, APNG, previews
// and chat app files are made as for an admin's upload), ask for changes or refuse it; every decision is in
// the activity log. Limits: SUBMISSIONS_WAITING_MAX waiting per account (409), SUBMISSIONS_PER_DAY sent per
// account and day (429, counted in the store like the remix renders).
import { CONTENT_TYPE } from '../../../contract/limits'
import type { NotificationKind } from '../../../contract/notifications'
import { SUBMITTER_RECENT_MAX, type SubmissionDecision, type SubmissionEdit, type SubmissionFields } from '../../../contract/submissions'
import { SUBMISSION_EDITABLE_STATES, type SubmissionState } from '../../../contract/submission-states'
import type { Config } from '../config'
import { MediaError } from '../media/inspect/media-error'
import { UnpackedTooLargeError, unpackLottie, type LottiePackage } from '../media/inspect/lottie-package'
import type { FileRef, Store, SubmissionPatch, SubmissionRecord } from '../store/port'
import { checkedAnimationFile } from './animation-files'
import type { AuditLog } from './audit'
import type { NotificationService } from './notifications'
import { safeBaseName } from './file-names'
import type { SpendLimit, WumpusService } from './wumpuses'
import { conflict, DomainError, forbidden, notFound, rateLimited, tooLarge } from '../domain/errors'
import { isAdmin } from './roles'
import { createFitCache, type PlatformFit } from './submission-fit'

export interface SubmissionsDeps {
  store: Store
  config: Config
  audit: AuditLog
  wumpuses: Pick<WumpusService, 'publish'>
  /** Tells the submitter of each decision (after it is stored; a failure to tell never fails it). */
  notifications: Pick<NotificationService, 'notify'>
}

/** A sticker file as sent, not yet judged. */
export interface SentSticker {
  bytes: Uint8Array
  name: string
}

export interface Page<T> {
  items: T[]
  nextCursor?: string
}

export interface SubmissionService {
  /** A verified person submits a sticker: judged, within the limits, stored, waiting for review. */
  submit(submitter: { email: string; name: string }, fields: SubmissionFields, file: SentSticker): Promise<SubmissionRecord>
  /** One's own submissions, newest first. */
  mine(email: string, page: { limit: number; cursor?: string }): Promise<Page<SubmissionRecord>>
  /** The submitter changes a submission that waits or had changes asked (then it waits again); others get NOT_FOUND. */
  edit(editor: string, id: string | undefined, patch: SubmissionEdit, file?: SentSticker): Promise<SubmissionRecord>
  /** The submitter withdraws (deletes) a submission that waits or had changes asked; others get NOT_FOUND. */
  withdraw(editor: string, id: string | undefined): Promise<void>
  /** Admins: one state's submissions, oldest first. */
  queue(admin: string, state: SubmissionState, page: { limit: number; cursor?: string }): Promise<Page<SubmissionRecord>>
  /** Admins decide on a waiting submission: publish it (as an animation of its submitter's), ask for changes, or refuse it. */
  decide(admin: string, id: string | undefined, decision: SubmissionDecision, note: string, spend: SpendLimit): Promise<SubmissionRecord>
  /** Admins: what the reviewer weighs beside a submission (its submitter's other submissions, reports against their stickers). */
  submitter(admin: string, id: string | undefined): Promise<SubmitterHistory>
  /** Admins: each chat app's file as far as it is judged without rendering (services/submission-fit.ts); a published one's are its animation's. */
  fit(admin: string, id: string | undefined): Promise<PlatformFit[]>
}

/** A submission's submitter as the review queue shows them (contract/submissions.ts SubmitterRecord). */
export interface SubmitterHistory {
  u_email: string
  u_name: string
  counts: Record<SubmissionState, number>
  /** Their most recent other submissions, newest first. */
  recent: SubmissionRecord[]
  reports: { open: number; stickers: number }
}

const DAY_SECONDS = 24 * 3600

export function createSubmissionService(deps: SubmissionsDeps): SubmissionService {
  const { store, config } = deps
  const fits = createFitCache()
  const perDay = Math.max(1, Math.round(config.submissionsPerDay * config.rateLimitFactor))
  const daily = store.rateCounter({ name: 'submissions:account', points: perDay, durationSeconds: DAY_SECONDS })

  const waitingMax = config.submissionsWaitingMax
  const waitingFull = () =>
    conflict(`You have ${waitingMax} submissions waiting for review, the most at once; wait for a decision or withdraw one`, {
      reason: 'submissions-waiting',
      max: waitingMax,
    })

  /**
   * Refuses a new waiting submission past the account's cap early, before the day's count is spent; the
   * store keeps the cap atomically when it inserts (two submissions at the same instant never both pass).
   */
  async function assertRoomToWait(email: string): Promise<void> {
    if ((await store.submissions.countBySubmitter(email, 'waiting')) >= waitingMax) throw waitingFull()
  }

  async function spendDay(email: string): Promise<void> {
    const waitMs = await daily.hit(email.toLowerCase())
    if (waitMs > 0) {
      const retryAfterSeconds = Math.ceil(waitMs / 1000)
      throw rateLimited(
        `You have sent ${perDay} submissions today, the most for one day; try again in ${Math.ceil(retryAfterSeconds / 3600)} h`,
        retryAfterSeconds,
        { limit: 'submissions', max: perDay, retryAfterSeconds },
      )
    }
  }

  /** A judged sticker's Lottie, stored for a submission (never swept as an unused upload: purpose 'submission'). */
  async function storeLottie(owner: string, lottie: Uint8Array, sentName: string): Promise<FileRef> {
    const stored = await store.files.put({
      bytes: lottie,
      contentType: CONTENT_TYPE.lottie,
      filename: `${safeBaseName(sentName) || 'wumpus'}.json`,
      owner,
      purpose: 'submission',
    })
    // The review queue's fit check is judged now, off the admin's request (submission-fit.ts FitCache).
    fits.warm(stored.sha256, lottie)
    return { id: stored.id, filename: stored.filename }
  }

  /** The submission when `email` sent it; NOT_FOUND for anyone else (they may not know it exists). */
  async function ownSubmission(email: string, id: string | undefined): Promise<SubmissionRecord> {
    const record = id === undefined ? undefined : await store.submissions.get(id)
    if (!record || record.u_email !== email) throw notFound('No such submission')
    if (!SUBMISSION_EDITABLE_STATES.includes(record.state)) {
      throw conflict(`This submission was ${record.state}: it can no longer be changed`, { reason: 'not-editable', state: record.state })
    }
    return record
  }

  const changedMeanwhile = () => conflict('This submission was decided on or changed meanwhile; reload it', { reason: 'changed' })

  return {
    async submit(submitter, fields, file) {
      // The file is judged before anything is counted: a refused file costs none of the day's submissions.
      const lottie = await judgedSticker(config, file.bytes)
      await assertRoomToWait(submitter.email)
      await spendDay(submitter.email)
      const u_name = (await store.users.get(submitter.email))?.user_name || submitter.name
      const stored = await storeLottie(submitter.email, lottie, file.name)
      let inserted: SubmissionRecord | 'full'
      try {
        inserted = await store.submissions.insert(
          {
            u_email: submitter.email,
            u_name,
            name: fields.name,
            description: fields.description,
            tags: fields.tags ?? [],
            emoji: fields.emoji,
            keywords: fields.keywords ?? [],
            licence: fields.licence,
            credit: fields.credit,
            source: fields.source,
            original: fields.original,
            sensitive: fields.sensitive,
            file: stored,
          },
          { waitingMax },
        )
      } catch (error) {
        await store.files.delete(stored.id)
        throw error
      }
      if (inserted === 'full') {
        await store.files.delete(stored.id)
        throw waitingFull()
      }
      return inserted
    },

    mine: (email, page) => store.submissions.listBySubmitter(email, page),

    async edit(editor, id, patch, file) {
      const record = await ownSubmission(editor, id)
      const newFile = file ? await storeLottie(editor, await judgedSticker(config, file.bytes), file.name) : undefined
      const changes: SubmissionPatch = { ...patch, ...(newFile ? { file: newFile } : {}), state: 'waiting' }
      // Sent back after changes were asked, it waits again: within the cap, kept by the store atomically.
      const updated = await store.submissions.update(record.id, changes, { whileStates: SUBMISSION_EDITABLE_STATES, waitingMax })
      if (!updated || updated === 'full') {
        if (newFile) await store.files.delete(newFile.id)
        throw updated ? waitingFull() : changedMeanwhile()
      }
      if (newFile && record.file) await store.files.delete(record.file.id)
      return updated
    },

    async withdraw(editor, id) {
      const record = await ownSubmission(editor, id)
      const deleted = await store.submissions.delete(record.id, { whileStates: SUBMISSION_EDITABLE_STATES })
      if (!deleted) throw changedMeanwhile()
      if (deleted.file) await store.files.delete(deleted.file.id)
    },

    async queue(admin, state, page) {
      if (!(await isAdmin(store, admin))) throw forbidden('Only admins can do this')
      return store.submissions.listByState(state, page)
    },

    async decide(admin, id, decision, note, spend) {
      if (!(await isAdmin(store, admin))) throw forbidden('Only admins can do this')
      const record = id === undefined ? undefined : await store.submissions.get(id)
      if (!record) throw notFound('No such submission')
      if (record.state !== 'waiting') {
        throw conflict(`Only a waiting submission can be decided on; this one is ${record.state}`, {
          reason: 'not-waiting',
          state: record.state,
        })
      }
      const decided =
        decision === 'publish' ? await publish(deps, admin, record, note, spend) : await askOrRefuse(deps, record, decision, note)
      if (!decided) throw changedMeanwhile()
      await deps.audit.record({
        actor: admin,
        action: `submission.${decision}`,
        target: { type: 'submission', id: record.id, name: record.name },
        changes: [
          { field: 'state', from: record.state, to: decided.state },
          ...(note ? [{ field: 'note', to: note }] : []),
          ...(decided.wumpusId ? [{ field: 'wumpus', to: decided.wumpusId }] : []),
        ],
      })
      await deps.notifications.notify([
        {
          recipient: record.u_email,
          kind: SUBMISSION_NOTIFICATIONS[decision],
          subject: { kind: 'submission', id: record.id, name: record.name },
          note,
        },
      ])
      return decided
    },

    async submitter(admin, id) {
      if (!(await isAdmin(store, admin))) throw forbidden('Only admins can do this')
      const record = id === undefined ? undefined : await store.submissions.get(id)
      if (!record) throw notFound('No such submission')
      return submitterHistory(store, record)
    },

    async fit(admin, id) {
      if (!(await isAdmin(store, admin))) throw forbidden('Only admins can do this')
      const record = id === undefined ? undefined : await store.submissions.get(id)
      if (!record) throw notFound('No such submission')
      const info = record.file && (await store.files.info(record.file.id))
      const verdict = info && (await fits.get(info.sha256, async () => (await store.files.read(info.id))?.bytes))
      if (!verdict) throw conflict('This submission was published: its animation’s page lists its files', { reason: 'published' })
      return verdict
    },
  }
}

const SUBMISSION_NOTIFICATIONS = {
  publish: 'submission.published',
  changes: 'submission.changes',
  refuse: 'submission.refused',
} as const satisfies Record<SubmissionDecision, NotificationKind>

/** Three reads whatever the submitter's history: counts grouped by state, one short page, one count of open reports. */
async function submitterHistory(store: Store, record: SubmissionRecord): Promise<SubmitterHistory> {
  const [counts, latest, reports] = await Promise.all([
    store.submissions.countsBySubmitter(record.u_email),
    store.submissions.listBySubmitter(record.u_email, { limit: SUBMITTER_RECENT_MAX + 1 }),
    store.reports.countOpenAgainstOwner(record.u_email),
  ])
  const recent = latest.items.filter((other) => other.id !== record.id).slice(0, SUBMITTER_RECENT_MAX)
  return { u_email: record.u_email, u_name: record.u_name, counts, recent, reports }
}

function askOrRefuse(
  deps: SubmissionsDeps,
  record: SubmissionRecord,
  decision: 'changes' | 'refuse',
  note: string,
): Promise<SubmissionRecord | undefined> {
  const state: SubmissionState = decision === 'changes' ? 'changes' : 'refused'
  return deps.store.submissions.update(record.id, { state, note }, { whileStates: ['waiting'] })
}

/**
 * Publishes a waiting submission: claimed first (waiting -> published, so a withdrawal or a second decision
 * cannot also apply), then made an animation of its submitter's with its licence and credit, by the
 * animations' publish (its GIF and APNG rendered from the Lottie, previews and chat app files after); the
 * claim is given back when that fails. The submission's own Lottie goes: the animation has its own copy.
 */
async function publish(
  deps: SubmissionsDeps,
  admin: string,
  record: SubmissionRecord,
  note: string,
  spend: SpendLimit,
): Promise<SubmissionRecord | undefined> {
  const { store } = deps
  const claimed = await store.submissions.update(record.id, { state: 'published', note: note || null }, { whileStates: ['waiting'] })
  if (!claimed) return undefined
  let wumpusId: string
  try {
    const file = record.file && (await store.files.read(record.file.id))
    if (!file) throw new DomainError('unavailable', 'The submission’s file is missing')
    const animation = await deps.wumpuses.publish(
      { email: record.u_email, name: record.u_name },
      {
        name: record.name,
        description: record.description,
        tags: record.tags,
        emoji: record.emoji,
        keywords: record.keywords,
        licence: record.licence,
        credit: record.credit,
        sensitive: record.sensitive,
      },
      { sent: [{ format: 'lottie', bytes: file.bytes, name: record.file!.filename }] },
      spend,
      { actor: admin },
    )
    wumpusId = animation._id
  } catch (error) {
    await store.submissions.update(record.id, { state: 'waiting', note: record.note ?? null }, { whileStates: ['published'] })
    throw error
  }
  const published = await store.submissions.update(record.id, { wumpusId, file: null }, { whileStates: ['published'] })
  if (record.file) await store.files.delete(record.file.id)
  return published
}

/**
 * The Lottie JSON inside a sent sticker (services' view of media/inspect/lottie-package.ts): within the Lottie
 * byte limit before and after unpacking (413), a package that opens (400), and a Lottie the inspector takes,
 * exactly as an admin's Lottie upload is judged (checkedAnimationFile).
 */
export async function judgedSticker(config: Config, bytes: Uint8Array): Promise<Uint8Array> {
  const limit = config.limits.lottie
  if (bytes.length > limit) throw tooLarge(`Sticker files may be at most ${limit} bytes`)
  let unpacked: { kind: LottiePackage; lottie: Uint8Array }
  try {
    unpacked = await unpackLottie(bytes, limit)
  } catch (error) {
    if (error instanceof UnpackedTooLargeError) throw tooLarge(`The unpacked Lottie may be at most ${limit} bytes`, { maxBytes: limit })
    if (error instanceof MediaError) {
      const reason = typeof error.details?.reason === 'string' ? error.details.reason : 'unreadable'
      throw new DomainError('invalid', `${error.message} (${reason})`, {
        mediaCode: error.code,
        format: 'lottie',
        ...error.details,
      })
    }
    throw error
  }
  checkedAnimationFile(config, 'lottie', unpacked.lottie)
  return unpacked.lottie
}
