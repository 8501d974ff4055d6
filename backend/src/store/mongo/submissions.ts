/** Submissions in MongoDB: the `submissions` collection, one document per submission (_id: its id). */
import type { ClientSession, Collection, Db, Filter } from 'mongodb'
import type { SubmissionState } from '../../../../contract/submission-states'
import { isId } from '../ids'
import type {
  NewSubmission,
  SubmissionPatch,
  SubmissionRecord,
  SubmissionRepository,
  SubmissionWaitingCap,
  SubmissionWriteGuard,
} from '../port'
import {
  decodeSubmissionCursor,
  inStates,
  newSubmissionRecord,
  patchedSubmission,
  stateCounts,
  submissionPage,
  toSubmissionRecord,
  waitsAgain,
} from '../submission-records'
import type { AccountCaps } from './caps'
import { guard } from './errors'

export const SUBMISSIONS_COLLECTION = 'submissions'
export const SUBMITTER_NEWEST_FIRST = { u_email: 1, createdAt: -1, _id: -1 } as const
export const STATE_OLDEST_FIRST = { state: 1, createdAt: 1, _id: 1 } as const

type SubmissionDocument = Omit<SubmissionRecord, 'id'> & { _id: string }

const fromDocument = ({ _id, ...rest }: SubmissionDocument): SubmissionRecord => toSubmissionRecord({ ...rest, id: _id })
const toDocument = ({ id, ...rest }: SubmissionRecord): SubmissionDocument => ({ _id: id, ...rest })

/** How often a write is made again on a fresh read when another write changed the submission meanwhile. */
const WRITE_ATTEMPTS = 10

export class MongoSubmissions implements SubmissionRepository {
  private readonly submissions: Collection<SubmissionDocument>

  constructor(
    db: Db,
    private readonly caps: AccountCaps,
  ) {
    this.submissions = db.collection<SubmissionDocument>(SUBMISSIONS_COLLECTION)
  }

  insert(submission: NewSubmission, options: SubmissionWaitingCap): Promise<SubmissionRecord | 'full'>
  insert(submission: NewSubmission): Promise<SubmissionRecord>
  /** Within waitingMax atomically: the count and the insert are one transaction in the submitter's turn (caps.ts). */
  async insert(submission: NewSubmission, options?: SubmissionWaitingCap): Promise<SubmissionRecord | 'full'> {
    const record = newSubmissionRecord(submission)
    if (!options) {
      await guard(() => this.submissions.insertOne(toDocument(record)))
      return record
    }
    return this.inWaitingTurn(record.u_email, options.waitingMax, async (session) => {
      await this.submissions.insertOne(toDocument(record), { session })
      return record
    })
  }

  /** `write` in the submitter's turn when they have fewer than `max` waiting, else 'full'. */
  private inWaitingTurn<T>(email: string, max: number, write: (session: ClientSession) => Promise<T>): Promise<T | 'full'> {
    return this.caps.inTurn(`submissions-waiting:${email}`, async (session) => {
      if ((await this.submissions.countDocuments({ u_email: email, state: 'waiting' }, { session })) >= max) return 'full'
      return write(session)
    })
  }

  async get(id: string): Promise<SubmissionRecord | undefined> {
    if (!isId(id)) return undefined
    const doc = await guard(() => this.submissions.findOne({ _id: id }))
    return doc ? fromDocument(doc) : undefined
  }

  update(
    id: string,
    patch: SubmissionPatch,
    options: SubmissionWriteGuard & SubmissionWaitingCap,
  ): Promise<SubmissionRecord | undefined | 'full'>
  update(id: string, patch: SubmissionPatch, options: SubmissionWriteGuard): Promise<SubmissionRecord | undefined>
  async update(
    id: string,
    patch: SubmissionPatch,
    options: SubmissionWriteGuard & Partial<SubmissionWaitingCap>,
  ): Promise<SubmissionRecord | undefined | 'full'> {
    if (!isId(id)) return undefined
    // Written only over the version read (its state and time), so a decision and an edit never both apply.
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const current = await this.get(id)
      if (!current || !inStates(current, options.whileStates)) return undefined
      const next = patchedSubmission(current, patch, new Date(Math.max(Date.now(), current.updatedAt.getTime() + 1)))
      const over = { _id: id, state: current.state, updatedAt: current.updatedAt }
      const max = options.waitingMax
      const written =
        max !== undefined && waitsAgain(current, next)
          ? await this.inWaitingTurn(
              current.u_email,
              max,
              async (session) => (await this.submissions.replaceOne(over, toDocument(next), { session })).matchedCount,
            )
          : (await guard(() => this.submissions.replaceOne(over, toDocument(next)))).matchedCount
      if (written === 'full') return 'full'
      if (written === 1) return next
    }
    throw new Error(`Submission ${id} kept changing while being updated`)
  }

  async delete(id: string, options: { whileStates: readonly SubmissionState[] }): Promise<SubmissionRecord | undefined> {
    if (!isId(id)) return undefined
    const doc = await guard(() => this.submissions.findOneAndDelete({ _id: id, state: { $in: [...options.whileStates] } }))
    return doc ? fromDocument(doc) : undefined
  }

  async listBySubmitter(email: string, options: { limit: number; cursor?: string }) {
    const after = options.cursor === undefined ? undefined : decodeSubmissionCursor(options.cursor, 'newest')
    const at = after && new Date(after.time)
    const filter: Filter<SubmissionDocument> = at
      ? { u_email: email, $or: [{ createdAt: { $lt: at } }, { createdAt: at, _id: { $lt: after.id } }] }
      : { u_email: email }
    const docs = await guard(() =>
      this.submissions
        .find(filter)
        .sort(SUBMITTER_NEWEST_FIRST)
        .limit(options.limit + 1)
        .toArray(),
    )
    return submissionPage(docs.map(fromDocument), options.limit, 'newest')
  }

  async listByState(state: SubmissionState, options: { limit: number; cursor?: string }) {
    const after = options.cursor === undefined ? undefined : decodeSubmissionCursor(options.cursor, 'oldest')
    const at = after && new Date(after.time)
    const filter: Filter<SubmissionDocument> = at
      ? { state, $or: [{ createdAt: { $gt: at } }, { createdAt: at, _id: { $gt: after.id } }] }
      : { state }
    const docs = await guard(() =>
      this.submissions
        .find(filter)
        .sort(STATE_OLDEST_FIRST)
        .limit(options.limit + 1)
        .toArray(),
    )
    return submissionPage(docs.map(fromDocument), options.limit, 'oldest')
  }

  countBySubmitter(email: string, state: SubmissionState): Promise<number> {
    return guard(() => this.submissions.countDocuments({ u_email: email, state }))
  }

  async countsBySubmitter(email: string): Promise<Record<SubmissionState, number>> {
    const rows = await guard(() =>
      this.submissions
        .aggregate<{ _id: string; count: number }>([{ $match: { u_email: email } }, { $group: { _id: '$state', count: { $sum: 1 } } }])
        .toArray(),
    )
    return stateCounts(rows.map((row) => ({ state: row._id, count: row.count })))
  }
}
