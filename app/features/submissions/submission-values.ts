import { z } from 'zod'
import { stickerEmojiListSchema } from '../../../contract/emoji'
import { creditSchema, DEFAULT_LICENCE, licenceSchema, type Licence } from '../../../contract/licence'
import type { Submission } from '../../../contract/submissions'
import { keywordsSchema, tagsSchema, wumpusDescriptionSchema, wumpusNameSchema } from '../../../contract/wumpus-write'

/** The submission form's values; `file` is the picked file's name ('' while none is picked). */
export interface SubmissionValues extends Record<string, unknown> {
  file: string
  name: string
  description: string
  tags: string[]
  emoji: string[]
  keywords: string[]
  licence: Licence
  credit: string
  source: string
  /** Who made it: the submitter, or someone else ('' until chosen). */
  original: '' | 'mine' | 'other'
  sensitive: boolean
}

export const emptySubmission = (credit: string): SubmissionValues => ({
  file: '',
  name: '',
  description: '',
  tags: [],
  emoji: [],
  keywords: [],
  licence: DEFAULT_LICENCE,
  credit,
  source: '',
  original: '',
  sensitive: false,
})

export function submissionValues(submission: Submission): SubmissionValues {
  return {
    file: 'the file sent before',
    name: submission.name,
    description: submission.description,
    tags: submission.tags,
    emoji: submission.emoji.map((emoji) => emoji.char),
    keywords: submission.keywords,
    licence: submission.licence,
    credit: submission.credit,
    source: submission.source,
    original: submission.original ? 'mine' : 'other',
    sensitive: submission.sensitive,
  }
}

/** The server's rules (contract/submissions.ts), on the form's values, with a message by each field. */
export const submissionFormSchema = z
  .object({
    file: z.string().min(1, 'Choose a Lottie JSON, .tgs or .lottie file'),
    name: wumpusNameSchema,
    description: wumpusDescriptionSchema,
    tags: tagsSchema,
    emoji: stickerEmojiListSchema.refine((emoji) => emoji.length >= 1 && emoji.length <= 3, 'Pick 1 to 3 emoji'),
    keywords: keywordsSchema,
    licence: licenceSchema,
    credit: creditSchema,
    source: z
      .string()
      .trim()
      .refine((value) => value === '' || /^https?:\/\/[^\s"'<>]+$/.test(value), 'Enter a link that starts with https://'),
    original: z.enum(['mine', 'other'], { error: 'Say who made it' }),
    sensitive: z.boolean(),
  })
  .superRefine((values, ctx) => {
    if (values.original === 'other' && values.credit === '')
      ctx.addIssue({ code: 'custom', path: ['credit'], message: 'Say who made it, as they should be credited' })
  })
