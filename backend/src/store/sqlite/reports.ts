/** Reports in SQLite: the `reports` table, each record as JSON beside the columns grouping goes by. */
import type { ReportState, ReportTargetKind } from '../../../../contract/reports'
import { filterFacets } from '../facets'
import type { NewReport, ReportRecord, ReportRepository } from '../port'
import { groupKeyPage, newReportRecord, reportGroups, toReportRecord, type ReportGroupKey } from '../report-records'
import { guarded, json, type Db } from './database'

interface ReportRow {
  id: string
  state: ReportState
  target_kind: ReportTargetKind
  target_id: string
  reporter_key: string
  created_at: number
  doc: string
}

function fromRow(row: ReportRow): ReportRecord {
  return toReportRecord(json.read<ReportRecord>(row.doc))
}

function toRow(record: ReportRecord): ReportRow {
  return {
    id: record.id,
    state: record.state,
    target_kind: record.target.kind,
    target_id: record.target.id,
    reporter_key: record.reporterKey,
    created_at: record.createdAt.getTime(),
    doc: json.write(record),
  }
}

export class SqliteReports implements ReportRepository {
  private readonly sql

  constructor(private readonly db: Db) {
    this.sql = {
      insert: db.prepare(
        `INSERT INTO reports (id, state, target_kind, target_id, reporter_key, created_at, doc)
         VALUES (@id, @state, @target_kind, @target_id, @reporter_key, @created_at, @doc)`,
      ),
      openBy: db.prepare<[string, string, string], ReportRow>(
        `SELECT * FROM reports WHERE target_kind = ? AND target_id = ? AND reporter_key = ? AND state = 'open' LIMIT 1`,
      ),
      groupKeys: db.prepare<[string], ReportGroupKey>(
        `SELECT target_kind AS kind, target_id AS id, count(*) AS count, min(created_at) AS oldest
         FROM reports WHERE state = ? GROUP BY target_kind, target_id`,
      ),
      ofTarget: db.prepare<[string, string, string], ReportRow>(
        'SELECT * FROM reports WHERE state = ? AND target_kind = ? AND target_id = ? ORDER BY created_at, id',
      ),
      countOpen: db
        .prepare<[string, string], number>("SELECT count(*) FROM reports WHERE state = 'open' AND target_kind = ? AND target_id = ?")
        .pluck(),
      decide: db.prepare('UPDATE reports SET state = @state, doc = @doc WHERE id = @id'),
      // The owner's listed animations by their uploader facet, their remixes by the remixes' owner index, then
      // each one's open reports by the state-and-target index: never a read of every open report.
      againstOwner: db.prepare<[{ facet: string; owner: string }], { open: number; stickers: number }>(
        `SELECT count(*) AS open, count(DISTINCT target_id) AS stickers FROM reports
         WHERE state = 'open' AND target_kind = 'wumpus' AND target_id IN (
           SELECT id FROM wumpus_facets WHERE facet = @facet
           UNION ALL SELECT id FROM wumpuses WHERE u_email = @owner AND remix_of IS NOT NULL
           UNION ALL SELECT id FROM wumpuses WHERE u_email = @owner AND hidden IS NOT NULL AND remix_of IS NULL)`,
      ),
    }
  }

  insertOpen(report: NewReport): Promise<{ record: ReportRecord; created: boolean }> {
    return guarded(() =>
      this.db.transaction(() => {
        const open = this.sql.openBy.get(report.target.kind, report.target.id, report.reporterKey)
        if (open) return { record: fromRow(open), created: false }
        const record = newReportRecord(report)
        this.sql.insert.run(toRow(record))
        return { record, created: true }
      })(),
    )
  }

  listGroups(state: ReportState, options: { limit: number; cursor?: string }) {
    return guarded(() =>
      this.db.transaction(() => {
        const { keys, nextCursor } = groupKeyPage(this.sql.groupKeys.all(state), options.limit, options.cursor)
        const reports = keys.flatMap((key) => this.sql.ofTarget.all(state, key.kind, key.id).map(fromRow))
        return { items: reportGroups(keys, reports), ...(nextCursor ? { nextCursor } : {}) }
      })(),
    )
  }

  decideOpen(target: { kind: ReportTargetKind; id: string }, decision: NonNullable<ReportRecord['decision']>): Promise<number> {
    return guarded(() =>
      this.db.transaction(() => {
        const open = this.sql.ofTarget.all('open', target.kind, target.id).map(fromRow)
        for (const report of open) this.sql.decide.run(toRow({ ...report, state: 'decided', decision }))
        return open.length
      })(),
    )
  }

  listByTarget(target: { kind: ReportTargetKind; id: string }, state: ReportState): Promise<ReportRecord[]> {
    return guarded(() => this.sql.ofTarget.all(state, target.kind, target.id).map(fromRow))
  }

  countOpen(target: { kind: ReportTargetKind; id: string }): Promise<number> {
    return guarded(() => this.sql.countOpen.get(target.kind, target.id)!)
  }

  countOpenAgainstOwner(owner: string): Promise<{ open: number; stickers: number }> {
    return guarded(() => {
      const { open, stickers } = this.sql.againstOwner.get({ facet: filterFacets({ u_email: owner })[0]!, owner })!
      return { open, stickers }
    })
  }
}
