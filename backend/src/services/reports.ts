// Reports (issue 37): anyone, signed in or not, reports a published animation (an original, or a remix shared
// by link) or a public or link-shared pack, with a reason and a note; one person's second report against the
// same thing while their first is open is that first one (201 with its id). Limited per address and per
// account (REPORTS_PER_HOUR, counted in the store). Admins list the reports grouped by what they are against
// and decide a target's open reports at once; every decision is in the activity log (report.<decision>).
// An animation can be hidden at once (its reports stay open, so its group stays in the open list, marked
// hidden: what is left to decide is restore or delete), then restored (visible again) or deleted (as an
// admin's delete, files and remixes too); both close its open reports. A pack's reports are only dismissed.
import { createHmac } from 'node:crypto'
import type { ReportDecision, ReportReason, ReportState, ReportTargetKind } from '../../../contract/reports'
import type { Config } from '../config'
import type { Logger } from '../logger'
import { conflict, invalid, notFound, rateLimited } from '../domain/errors'
import type { ReportGroupRecord, ReportRecord, Store } from '../store/port'
import type { AuditLog } from './audit'
import type { NotificationService } from './notifications'
import type { WumpusService } from './wumpuses'

export interface ReportsDeps {
  store: Store
  config: Config
  audit: AuditLog
  logger: Logger
  /** Tells each signed-in reporter of a decision (after it is stored; a failure to tell never fails it). */
  notifications: Pick<NotificationService, 'notify'>
  /** Deletes an animation as an admin's DELETE does (the `delete` decision). */
  wumpuses: Pick<WumpusService, 'delete'>
  /** Told when an animation is hidden or shown again (a pack's Telegram set follows). */
  onChange?: (wumpusId: string) => void
}

export interface ReportTarget {
  kind: ReportTargetKind
  id: string
}

/** Who reports: their email when signed in, and always their address (a key from http/client-address.ts). */
export interface Reporter {
  email?: string
  address: string
}

export interface ReportGroup extends ReportGroupRecord {
  /** The animation's or pack's name; '' when it is gone. */
  name: string
  /** An animation an admin hid, waiting for restore or delete. */
  hidden: boolean
}

export interface ReportService {
  /** Files a report (or finds the reporter's open one against the same target); NOT_FOUND for what cannot be reported. */
  report(reporter: Reporter, target: ReportTarget, reason: ReportReason, note: string): Promise<{ record: ReportRecord; created: boolean }>
  /** Admins: one state's reports grouped by target, the most reports first, then the oldest. */
  groups(state: ReportState, page: { limit: number; cursor?: string }): Promise<{ items: ReportGroup[]; nextCursor?: string }>
  /**
   * Admins: decides every open report against a target (contract/reports.ts REPORT_DECISIONS); NOT_FOUND when
   * none is open, INVALID for hide, restore or delete on a pack, CONFLICT for hide on a hidden animation,
   * restore on one that is not hidden and dismiss on a hidden one.
   */
  decide(admin: string, target: ReportTarget, decision: ReportDecision, note: string): Promise<number>
}

const HOUR_SECONDS = 3600

export function createReportService(deps: ReportsDeps): ReportService {
  const { store, config } = deps
  const perHour = Math.max(1, Math.round(config.reportsPerHour * config.rateLimitFactor))
  const byAddress = store.rateCounter({ name: 'reports:ip', points: perHour, durationSeconds: HOUR_SECONDS })
  const byAccount = store.rateCounter({ name: 'reports:account', points: perHour, durationSeconds: HOUR_SECONDS })

  async function spend(reporter: Reporter): Promise<void> {
    const waits = await Promise.all([
      byAddress.hit(reporter.address),
      reporter.email === undefined ? 0 : byAccount.hit(reporter.email.toLowerCase()),
    ])
    const waitMs = Math.max(...waits)
    if (waitMs > 0) {
      const retryAfterSeconds = Math.ceil(waitMs / 1000)
      throw rateLimited(`Too many reports; try again in ${Math.ceil(retryAfterSeconds / 60)} min`, retryAfterSeconds, {
        limit: 'reports',
        max: perHour,
        retryAfterSeconds,
      })
    }
  }

  /** The target's name when anyone may see it (and so report it); undefined otherwise. */
  async function visibleName(target: ReportTarget): Promise<string | undefined> {
    if (target.kind === 'wumpus') {
      const wumpus = await store.wumpuses.get(target.id)
      if (!wumpus || wumpus.hidden || (wumpus.remix && wumpus.remix.visibility !== 'link')) return undefined
      return wumpus.name
    }
    const pack = await store.packs.get(target.id)
    if (!pack || pack.visibility === 'private') return undefined
    return pack.name
  }

  /** Whoever reports, as a key that finds their open report again without keeping their address. */
  const reporterKey = (reporter: Reporter) =>
    reporter.email !== undefined
      ? `account:${reporter.email.toLowerCase()}`
      : `address:${createHmac('sha256', config.jwtSecret).update(reporter.address).digest('hex').slice(0, 32)}`

  /** Each signed-in reporter whose report this decision (made at `at`) decided, once; anonymous reporters have no one to tell. */
  async function notifyReporters(target: ReportTarget, name: string, at: Date): Promise<void> {
    let decided: ReportRecord[]
    try {
      decided = (await store.reports.listByTarget(target, 'decided')).filter((r) => r.decision?.at.getTime() === at.getTime())
    } catch (error) {
      deps.logger.error('could not find the reporters to tell of a decision', { target, error: String(error) })
      return
    }
    const reporters = new Map<string, ReportRecord>()
    for (const report of decided) if (report.reporter !== undefined) reporters.set(report.reporter.toLowerCase(), report)
    await deps.notifications.notify(
      [...reporters.values()].map((report) => ({
        recipient: report.reporter!,
        kind: 'report.decided' as const,
        subject: { kind: target.kind, id: target.id, name },
        note: report.decision!.note,
        decision: report.decision!.kind,
      })),
    )
  }

  return {
    async report(reporter, target, reason, note) {
      await spend(reporter)
      if ((await visibleName(target)) === undefined) throw notFound(target.kind === 'wumpus' ? 'No such animation' : 'No such pack')
      return store.reports.insertOpen({
        target,
        reason,
        note,
        ...(reporter.email === undefined ? {} : { reporter: reporter.email }),
        reporterKey: reporterKey(reporter),
      })
    },

    async groups(state, page) {
      const { items, nextCursor } = await store.reports.listGroups(state, page)
      const named = await Promise.all(
        items.map(async (group) => {
          const record = group.target.kind === 'wumpus' ? await store.wumpuses.get(group.target.id) : await store.packs.get(group.target.id)
          return { ...group, name: record?.name ?? '', hidden: Boolean(record && 'hidden' in record && record.hidden) }
        }),
      )
      return { items: named, ...(nextCursor ? { nextCursor } : {}) }
    },

    async decide(admin, target, decision, note) {
      if (target.kind === 'pack' && decision !== 'dismiss')
        throw invalid('Only an animation is hidden, restored or deleted; a pack’s reports are dismissed', { field: 'decision' })
      const record = target.kind === 'wumpus' ? await store.wumpuses.get(target.id) : await store.packs.get(target.id)
      const hidden = record !== undefined && 'hidden' in record && record.hidden !== undefined
      const open = await store.reports.countOpen(target)
      if (open === 0) throw notFound('No open reports against it')
      if (decision !== 'dismiss' && !record) throw notFound('No animation with this id')
      if (decision === 'dismiss' && hidden) throw conflict('It is hidden: restore or delete it', { field: 'decision', hidden })
      if (decision === 'hide' && hidden) throw conflict('It is hidden already', { field: 'decision', hidden })
      if (decision === 'restore' && !hidden) throw conflict('It is not hidden', { field: 'decision', hidden })
      let decided = open
      const at = new Date()
      if (decision === 'hide' || decision === 'restore') {
        await store.wumpuses.setHidden(target.id, decision === 'hide' ? { at, by: admin } : null)
        deps.onChange?.(target.id)
      }
      if (decision === 'delete') await deps.wumpuses.delete(admin, target.id)
      // Hiding leaves the reports open: the group stays in the open list until restore or delete.
      if (decision !== 'hide') {
        decided = await store.reports.decideOpen(target, { kind: decision, by: admin, at, note })
        if (decided === 0) throw notFound('No open reports against it')
      }
      await deps.audit.record({
        actor: admin,
        action: `report.${decision}`,
        target: { type: target.kind, id: target.id, name: record?.name ?? '' },
        changes: [{ field: 'reports', to: String(decided) }, ...(note ? [{ field: 'note', to: note }] : [])],
      })
      // Hiding decides nothing yet: the reporters hear of the restore or delete that closes their reports.
      if (decision !== 'hide') await notifyReporters(target, record?.name ?? '', at)
      return decided
    },
  }
}
