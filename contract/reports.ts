import { z } from 'zod'
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './limits'
import { cursorSchema } from './paging'

/**
 * Reports (issue 37): anyone (signed in or not) says a published animation or a shared pack has a problem;
 * admins see the open ones grouped by what they are against and decide on them.
 */
export const REPORT_REASONS = {
  broken: 'It does not play or looks broken',
  offensive: 'Offensive or hateful',
  sensitive: 'Sensitive content not marked',
  copyright: "Someone else's work without credit",
  spam: 'Spam or advertising',
  other: 'Something else (say what in the note)',
} as const
export type ReportReason = keyof typeof REPORT_REASONS
export const REPORT_REASON_IDS = Object.keys(REPORT_REASONS) as [ReportReason, ...ReportReason[]]
export const reportReasonSchema = z.enum(REPORT_REASON_IDS)

export const REPORT_NOTE_MAX = 500
export const REPORT_TARGET_KINDS = ['wumpus', 'pack'] as const
export type ReportTargetKind = (typeof REPORT_TARGET_KINDS)[number]

export const REPORT_STATES = ['open', 'decided'] as const
export type ReportState = (typeof REPORT_STATES)[number]

const targetIdSchema = z.string().trim().min(1).max(64)

/** What a report or decision is against: exactly one of `wumpusId` and `packId`. */
function exactlyOneTarget(body: { wumpusId?: string; packId?: string }, ctx: z.RefinementCtx): void {
  if ((body.wumpusId === undefined) === (body.packId === undefined))
    ctx.addIssue({ code: 'custom', path: ['wumpusId'], message: 'Send exactly one of wumpusId and packId' })
}

/** POST /api/reports: a note is required for the reason `other`. */
export const newReportSchema = z
  .object({
    wumpusId: targetIdSchema.optional(),
    packId: targetIdSchema.optional(),
    reason: reportReasonSchema,
    note: z.string().trim().max(REPORT_NOTE_MAX, `A note has at most ${REPORT_NOTE_MAX} characters`).default(''),
  })
  .strict()
  .superRefine((body, ctx) => {
    exactlyOneTarget(body, ctx)
    if (body.reason === 'other' && body.note === '') ctx.addIssue({ code: 'custom', path: ['note'], message: 'Say what is wrong' })
  })
export type NewReportBody = z.input<typeof newReportSchema>

/** POST /api/reports answers 201 `{ id }` (the open report the same person already made against it, if any). */
export const reportCreatedSchema = z.object({ id: z.string() })

/**
 * The decisions on a target's open reports (docs/rest-api.md):
 * - `dismiss`: nothing is wrong; its open reports are closed (not on a hidden animation: restore or delete it);
 * - `hide` (animations only): it leaves every list, search, pack and link preview at once and answers 404 to
 *   all but admins; its reports stay open, so the group stays in the open list (marked hidden) until
 *   `restore` or `delete`;
 * - `restore` (a hidden animation): it is back where it was; its open reports are closed;
 * - `delete` (animations only): it is deleted as an admin's delete does, files and all; its open reports are closed.
 */
export const REPORT_DECISIONS = ['dismiss', 'hide', 'restore', 'delete'] as const
export type ReportDecision = (typeof REPORT_DECISIONS)[number]
/** The decisions that close a target's open reports (`hide` leaves them open). */
export type ClosingReportDecision = Exclude<ReportDecision, 'hide'>

export const REPORT_DECISION_NOTE_MAX = 1000

/** POST /api/reports/decision (admins): decides every open report against one target. */
export const reportDecisionSchema = z
  .object({
    wumpusId: targetIdSchema.optional(),
    packId: targetIdSchema.optional(),
    decision: z.enum(REPORT_DECISIONS),
    note: z.string().trim().max(REPORT_DECISION_NOTE_MAX, `A note has at most ${REPORT_DECISION_NOTE_MAX} characters`).default(''),
  })
  .strict()
  .superRefine(exactlyOneTarget)
export type ReportDecisionBody = z.input<typeof reportDecisionSchema>

/** POST /api/reports/decision answers how many open reports it decided (closed; for `hide`, how many stay open). */
export const reportDecidedSchema = z.object({ decided: z.number().int() })

/** GET /api/reports (admins): `open` by default, paged by cursor. */
export const reportQuerySchema = z
  .object({
    state: z.enum(REPORT_STATES).default('open'),
    limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
    cursor: cursorSchema.optional(),
  })
  .strict()

/** One report as admins see it: never the reporter's address. */
export const reportSchema = z.object({
  id: z.string(),
  reason: reportReasonSchema,
  note: z.string(),
  createdAt: z.string(),
  /** The reporter's email when they were signed in. */
  reporter: z.string().optional(),
  /** Once decided (never `hide`: that leaves reports open). */
  decision: z.enum(REPORT_DECISIONS).optional(),
  decisionNote: z.string().optional(),
  decidedBy: z.string().optional(),
  decidedAt: z.string().optional(),
})
export type Report = z.infer<typeof reportSchema>

/** The reports in one state against one target: the groups with the most reports first, then the oldest. */
export const reportGroupSchema = z.object({
  kind: z.enum(REPORT_TARGET_KINDS),
  id: z.string(),
  /** The animation's or pack's name; '' when it is gone. */
  name: z.string(),
  count: z.number().int(),
  /** Animations only: an admin hid it (decision `hide`) and it waits for `restore` or `delete`. */
  hidden: z.boolean().optional(),
  reports: z.array(reportSchema),
})
export type ReportGroup = z.infer<typeof reportGroupSchema>
export const reportGroupListSchema = z.array(reportGroupSchema)
