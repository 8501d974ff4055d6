import { z } from 'zod'
import { PLATFORMS } from './platforms'
import { SUBMISSION_STATES } from './submission-states'
import { PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT } from './limits'
import { creditSchema, licenceSchema } from './licence'
import { cursorSchema } from './paging'
import { stickerEmojiSchema } from './wumpus'
import {
  emojiFieldsSchema,
  flagFieldSchema,
  keywordFieldsSchema,
  tagFieldsSchema,
  wumpusDescriptionSchema,
  wumpusNameSchema,
} from './wumpus-write'

/** Submissions (issue 37): a signed-in person with a verified email sends a sticker, admins review it. */
export const submissionStateSchema = z.enum(SUBMISSION_STATES)

export const SUBMISSION_SOURCE_MAX = 2048
export const DECISION_NOTE_MAX = 1000

/** An optional http(s) link to where the sticker comes from; '' means none. */
const sourceSchema = z
  .string()
  .trim()
  .max(SUBMISSION_SOURCE_MAX, 'Enter a valid URL')
  .refine((value) => value === '' || /^https?:\/\/[^\s"'<>]+$/.test(value), 'Enter a valid http(s) URL')

/**
 * POST /api/submissions as multipart: the file as `file` (a Lottie JSON, a Telegram .tgs or a dotLottie
 * .lottie, judged by its bytes) and these text fields; `tags`, `emoji` and `keywords` as POST /api/wumpuses
 * takes them.
 */
export const submissionFieldsSchema = z
  .object({
    name: wumpusNameSchema,
    description: wumpusDescriptionSchema,
    tags: tagFieldsSchema.optional(),
    emoji: emojiFieldsSchema.refine((emoji) => emoji.length >= 1 && emoji.length <= 3, 'Pick 1 to 3 emoji'),
    keywords: keywordFieldsSchema.optional(),
    licence: licenceSchema,
    credit: creditSchema.default(''),
    source: sourceSchema.default(''),
    original: flagFieldSchema,
    sensitive: flagFieldSchema.default(false),
  })
  .strict()
export type SubmissionFields = z.infer<typeof submissionFieldsSchema>

/** PUT /api/submissions/{id}: multipart with any of the text fields (each replaces its value) and optionally a new `file`. */
export const submissionEditFieldsSchema = submissionFieldsSchema.partial().strict()
export type SubmissionEdit = z.infer<typeof submissionEditFieldsSchema>

/** A submission as the API shows it to its submitter and to admins. */
export const submissionSchema = z.object({
  id: z.string(),
  state: submissionStateSchema,
  name: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  emoji: z.array(stickerEmojiSchema),
  keywords: z.array(z.string()),
  licence: licenceSchema,
  credit: z.string(),
  /** '' when none was given. */
  source: z.string(),
  original: z.boolean(),
  sensitive: z.boolean(),
  /** The submitter's email and display name. */
  u_email: z.string(),
  u_name: z.string(),
  /** The Lottie JSON as stored (a .tgs or .lottie is unpacked), for the preview; absent once published. */
  lottie: z.string().optional(),
  /** The reviewer's note of the last decision (why changes are asked, why it was refused). */
  note: z.string().optional(),
  /** Once published: the animation it became. */
  wumpusId: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Submission = z.infer<typeof submissionSchema>
export const submissionListSchema = z.array(submissionSchema)

/** POST /api/submissions answers `{ id }`. */
export const submissionCreatedSchema = z.object({ id: z.string() })

/** GET /api/me/submissions: newest first, paged. */
export const mySubmissionsQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
    cursor: cursorSchema.optional(),
  })
  .strict()

/** GET /api/submissions (admins): one state's submissions, oldest first, paged; `waiting` by default. */
export const submissionQueueQuerySchema = mySubmissionsQuerySchema.extend({ state: submissionStateSchema.default('waiting') }).strict()

export const SUBMISSION_DECISIONS = ['publish', 'changes', 'refuse'] as const
export type SubmissionDecision = (typeof SUBMISSION_DECISIONS)[number]

/** POST /api/submissions/{id}/decision: a note is required when asking for changes or refusing. */
export const submissionDecisionSchema = z
  .object({
    decision: z.enum(SUBMISSION_DECISIONS),
    note: z.string().trim().max(DECISION_NOTE_MAX, `A note has at most ${DECISION_NOTE_MAX} characters`).default(''),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.decision !== 'publish' && body.note === '')
      ctx.addIssue({ code: 'custom', path: ['note'], message: 'Say what to change, or why it is refused' })
  })
export type SubmissionDecisionBody = z.input<typeof submissionDecisionSchema>

/** How many of the submitter's recent submissions GET /api/submissions/{id}/submitter lists. */
export const SUBMITTER_RECENT_MAX = 5

/**
 * GET /api/submissions/{id}/submitter (admins): what the reviewer weighs beside a submission: its submitter's
 * submissions counted by state (this one included), their most recent others (newest first, links to the
 * published ones' animations), and the open reports against the stickers they own.
 */
export const submitterRecordSchema = z.object({
  u_email: z.string(),
  u_name: z.string(),
  counts: z.object({ waiting: z.number(), changes: z.number(), refused: z.number(), published: z.number() }),
  recent: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      state: submissionStateSchema,
      wumpusId: z.string().optional(),
      createdAt: z.string(),
    }),
  ),
  reports: z.object({
    /** Open reports against the submitter's stickers. */
    open: z.number(),
    /** How many of their stickers those reports are against. */
    stickers: z.number(),
  }),
})
export type SubmitterRecord = z.infer<typeof submitterRecordSchema>

/**
 * GET /api/submissions/{id}/fit (admins): each chat app's file as far as it can be judged from the Lottie
 * without rendering: Telegram's .tgs is made and checked (it is the Lottie, gzipped); the others are judged
 * by duration alone (`fits: false` past the app's limit), their byte caps only when the files are made on
 * publish (`fits: null`).
 */
export const submissionFitSchema = z.array(
  z.object({
    platform: z.enum(PLATFORMS),
    label: z.string(),
    /** true: the file was made and fits; false: it cannot; null: decided when its files are rendered. */
    fits: z.boolean().nullable(),
    notes: z.array(z.string()),
    /** The .tgs file's bytes, when one was made. */
    bytes: z.number().optional(),
  }),
)
export type SubmissionFit = z.infer<typeof submissionFitSchema>
