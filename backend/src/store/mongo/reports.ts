/** Reports in MongoDB: the `reports` collection, one document per report (_id: its id). */
import type { Collection, Db } from 'mongodb'
import type { ReportState, ReportTargetKind } from '../../../../contract/reports'
import { DuplicateKeyError, type NewReport, type ReportRecord, type ReportRepository } from '../port'
import { groupKeyPage, newReportRecord, reportGroups, toReportRecord, type ReportGroupKey } from '../report-records'
import { guard } from './errors'

export const REPORTS_COLLECTION = 'reports'
export const REPORTS_BY_STATE_TARGET = { state: 1, 'target.kind': 1, 'target.id': 1, createdAt: 1 } as const
/** Unique among open reports: one open report per reporter and target. */
export const REPORTS_BY_TARGET_REPORTER = { 'target.kind': 1, 'target.id': 1, reporterKey: 1 } as const

type ReportDocument = Omit<ReportRecord, 'id'> & { _id: string }

const fromDocument = ({ _id, ...rest }: ReportDocument): ReportRecord => toReportRecord({ ...rest, id: _id })
const toDocument = ({ id, ...rest }: ReportRecord): ReportDocument => ({ _id: id, ...rest })

export class MongoReports implements ReportRepository {
  private readonly reports: Collection<ReportDocument>

  private readonly wumpuses: Collection<{ _id: string; u_email: string }>

  constructor(db: Db) {
    this.reports = db.collection<ReportDocument>(REPORTS_COLLECTION)
    this.wumpuses = db.collection<{ _id: string; u_email: string }>('wumpuses')
  }

  async insertOpen(report: NewReport): Promise<{ record: ReportRecord; created: boolean }> {
    const open = () =>
      guard(() =>
        this.reports.findOne({
          'target.kind': report.target.kind,
          'target.id': report.target.id,
          reporterKey: report.reporterKey,
          state: 'open',
        }),
      )
    const found = await open()
    if (found) return { record: fromDocument(found), created: false }
    const record = newReportRecord(report)
    try {
      await guard(() => this.reports.insertOne(toDocument(record)))
      return { record, created: true }
    } catch (error) {
      // The same person's report sent at the same instant: the unique open index kept one; that one is theirs.
      const other = error instanceof DuplicateKeyError ? await open() : undefined
      if (other) return { record: fromDocument(other), created: false }
      throw error
    }
  }

  async listGroups(state: ReportState, options: { limit: number; cursor?: string }) {
    const grouped = await guard(() =>
      this.reports
        .aggregate<{ _id: { kind: ReportTargetKind; id: string }; count: number; oldest: Date }>([
          { $match: { state } },
          { $group: { _id: { kind: '$target.kind', id: '$target.id' }, count: { $sum: 1 }, oldest: { $min: '$createdAt' } } },
        ])
        .toArray(),
    )
    const all: ReportGroupKey[] = grouped.map((g) => ({
      kind: g._id.kind,
      id: g._id.id,
      count: g.count,
      oldest: new Date(g.oldest).getTime(),
    }))
    const { keys, nextCursor } = groupKeyPage(all, options.limit, options.cursor)
    const docs =
      keys.length === 0
        ? []
        : await guard(() =>
            this.reports
              .find({ state, $or: keys.map((key) => ({ 'target.kind': key.kind, 'target.id': key.id })) })
              .sort({ createdAt: 1, _id: 1 })
              .toArray(),
          )
    return { items: reportGroups(keys, docs.map(fromDocument)), ...(nextCursor ? { nextCursor } : {}) }
  }

  async decideOpen(target: { kind: ReportTargetKind; id: string }, decision: NonNullable<ReportRecord['decision']>): Promise<number> {
    const result = await guard(() =>
      this.reports.updateMany(
        { 'target.kind': target.kind, 'target.id': target.id, state: 'open' },
        { $set: { state: 'decided', decision } },
      ),
    )
    return result.modifiedCount
  }

  async listByTarget(target: { kind: ReportTargetKind; id: string }, state: ReportState): Promise<ReportRecord[]> {
    const docs = await guard(() =>
      this.reports.find({ state, 'target.kind': target.kind, 'target.id': target.id }).sort({ createdAt: 1, _id: 1 }).toArray(),
    )
    return docs.map(fromDocument)
  }

  countOpen(target: { kind: ReportTargetKind; id: string }): Promise<number> {
    return guard(() => this.reports.countDocuments({ state: 'open', 'target.kind': target.kind, 'target.id': target.id }))
  }

  async countOpenAgainstOwner(owner: string): Promise<{ open: number; stickers: number }> {
    // The owner's animations by the u_email index, then their open reports by the state-and-target index.
    const owned = await guard(() => this.wumpuses.find({ u_email: owner }, { projection: { _id: 1 } }).toArray())
    if (owned.length === 0) return { open: 0, stickers: 0 }
    const grouped = await guard(() =>
      this.reports
        .aggregate<{ _id: string; count: number }>([
          { $match: { state: 'open', 'target.kind': 'wumpus', 'target.id': { $in: owned.map((w) => w._id) } } },
          { $group: { _id: '$target.id', count: { $sum: 1 } } },
        ])
        .toArray(),
    )
    return { open: grouped.reduce((sum, g) => sum + g.count, 0), stickers: grouped.length }
  }
}
