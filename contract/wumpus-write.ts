import { z } from 'zod'
import { stickerEmojiListSchema } from './emoji'
import { KEYWORDS_MAX, KEYWORDS_TOTAL_MAX, MEDIA_FORMATS } from './limits'
import { mediaInfoSchema } from './media'
import { emojiIn, TAGS_MAX } from './search'
import { creditSchema, licenceSchema } from './licence'
import { NAME_PATTERN, userSchema } from './user'
import { idSchema, tagSchema } from './wumpus'

/** Writing animations: the admin's and uploader's payloads, as the server checks them. */

export const WUMPUS_NAME_MIN = 3
export const WUMPUS_NAME_MAX = 60
export const WUMPUS_DESCRIPTION_MIN = 10
export const WUMPUS_DESCRIPTION_MAX = 500

export const wumpusNameSchema = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .regex(NAME_PATTERN, 'Provide a valid name')
  .min(WUMPUS_NAME_MIN, 'Name should be at least 3 characters')
  .max(WUMPUS_NAME_MAX, `Name should be at most ${WUMPUS_NAME_MAX} characters`)

export const wumpusDescriptionSchema = z
  .string()
  .trim()
  .min(1, 'Description is required')
  .min(WUMPUS_DESCRIPTION_MIN, 'Description should be at least 10 characters')
  .max(WUMPUS_DESCRIPTION_MAX, `Description should be at most ${WUMPUS_DESCRIPTION_MAX} characters`)

/** An animation's tags, as typed: each normalized and checked, repeats dropped, at most TAGS_MAX. */
export const tagsSchema = z
  .array(tagSchema)
  .max(50)
  .transform((tags) => [...new Set(tags)])
  .pipe(z.array(z.string()).max(TAGS_MAX, `At most ${TAGS_MAX} tags`))

/** One keyword as typed: spaces trimmed and collapsed, lower case; words and spaces, hyphens and apostrophes between. */
export const keywordSchema = z
  .string()
  .max(200)
  .transform((keyword) => keyword.trim().replace(/\s+/g, ' ').toLowerCase())
  .pipe(
    z
      .string()
      .min(1, 'A keyword cannot be empty')
      .regex(
        /^[\p{L}\p{N}]+(?:[ '’-][\p{L}\p{N}]+)*$/u,
        'Keywords are words: letters and digits, with spaces, hyphens or apostrophes between',
      ),
  )

/** An animation's search keywords: repeats dropped, at most KEYWORDS_MAX and KEYWORDS_TOTAL_MAX characters in all (Telegram's rule). */
export const keywordsSchema = z
  .array(keywordSchema)
  .max(50)
  .transform((keywords) => [...new Set(keywords)])
  .pipe(
    z
      .array(z.string())
      .max(KEYWORDS_MAX, `At most ${KEYWORDS_MAX} keywords`)
      .refine(
        (keywords) => keywords.join('').length <= KEYWORDS_TOTAL_MAX,
        `Keywords have at most ${KEYWORDS_TOTAL_MAX} characters in all`,
      ),
  )

/** An http(s) link, or one of our own stored files. */
export const LOTTIE_LINK_PATTERN = /^(https?:\/\/[^\s"'<>]+|\/api\/files\/[^\s"'<>]+)$/

/**
 * The add-animation form. `gif`, `apng` and `lottieFile` hold the ids of files already uploaded ('' when
 * none). A Lottie (file or link) is enough: the server can render the GIF and APNG from it, so those two
 * are only required when no Lottie is given; the link is only required when no Lottie file is chosen.
 */
export const addWumpusFormSchema = z
  .object({
    name: wumpusNameSchema,
    description: wumpusDescriptionSchema,
    lottieLink: z.string().trim().max(2048, 'Enter a valid URL'),
    lottieFile: z.string(),
    apng: z.string(),
    gif: z.string(),
    tags: tagsSchema,
    emoji: stickerEmojiListSchema.refine((emoji) => emoji.length > 0, 'Pick at least one emoji'),
    keywords: keywordsSchema,
    sensitive: z.boolean().default(false),
  })
  .superRefine((form, ctx) => {
    const link = form.lottieLink
    if (!form.lottieFile) {
      if (!link) ctx.addIssue({ code: 'custom', path: ['lottieLink'], message: 'Enter lottie json link' })
      else if (!LOTTIE_LINK_PATTERN.test(link)) ctx.addIssue({ code: 'custom', path: ['lottieLink'], message: 'Enter a valid URL' })
    }
    const hasLottie = Boolean(form.lottieFile || link)
    if (!hasLottie && !form.apng) ctx.addIssue({ code: 'custom', path: ['apng'], message: '.png file is required' })
    if (!hasLottie && !form.gif) ctx.addIssue({ code: 'custom', path: ['gif'], message: '.gif file is required' })
  })
export type AddWumpusForm = z.input<typeof addWumpusFormSchema>

export const animationFormatSchema = z.enum(MEDIA_FORMATS)

/** A file uploaded for an animation, with what the server learnt from its bytes. */
export const uploadedAnimationFileSchema = z.object({
  id: idSchema,
  url: z.string(),
  filename: z.string(),
  info: mediaInfoSchema,
})
export type UploadedAnimationFile = z.infer<typeof uploadedAnimationFileSchema>

/** POST /api/uploads/lottie-link: a Lottie to fetch (https, or one of our own file URLs). */
export const lottieLinkRequestSchema = z.object({ url: z.string().trim().min(1).max(2048) }).strict()

/** POST /api/renders: render GIF and APNG from an uploaded Lottie. */
export const renderRequestSchema = z.object({ lottie: idSchema }).strict()
export const renderResponseSchema = z.object({ gif: uploadedAnimationFileSchema, apng: uploadedAnimationFileSchema })

const fileIdsSchema = z.object({ gif: idSchema, apng: idSchema, lottie: idSchema }).strict()

/** POST /api/wumpuses as JSON: file ids from earlier uploads. u_email and u_name come from the session. */
export const createWumpusSchema = z
  .object({
    name: wumpusNameSchema,
    description: wumpusDescriptionSchema,
    files: fileIdsSchema,
    tags: tagsSchema.optional(),
    emoji: stickerEmojiListSchema.optional(),
    keywords: keywordsSchema.optional(),
    licence: licenceSchema.optional(),
    credit: creditSchema.optional(),
    /** Left out of lists and searches unless a viewer turned them on (default false). */
    sensitive: z.boolean().optional(),
  })
  .strict()
export type CreateWumpus = z.infer<typeof createWumpusSchema>
/** The body as a client sends it (emoji as characters). */
export type CreateWumpusBody = z.input<typeof createWumpusSchema>

/** A form field holding `true` or `false`. */
export const flagFieldSchema = z.enum(['true', 'false'], { error: 'Send true or false' }).transform((value) => value === 'true')

/** Tags sent as form fields: one field per tag, or one field of comma-separated tags. */
export const tagFieldsSchema = z.preprocess(
  (value) => (typeof value === 'string' ? value.split(',').filter((tag) => tag.trim() !== '') : value),
  tagsSchema,
)

/** Keywords sent as form fields: one field per keyword, or one field of comma-separated keywords. */
export const keywordFieldsSchema = z.preprocess(
  (value) => (typeof value === 'string' ? value.split(',').filter((keyword) => keyword.trim() !== '') : value),
  keywordsSchema,
)

/** Emoji sent as form fields: one field per emoji, or one field holding them all ("👋🎉"). */
export const emojiFieldsSchema = z.preprocess((value) => (typeof value === 'string' ? emojiIn(value) : value), stickerEmojiListSchema)

/** POST /api/wumpuses as multipart: these text fields, and files `gif`, `apng`, `lottie`. */
export const createWumpusFieldsSchema = z
  .object({
    name: wumpusNameSchema,
    description: wumpusDescriptionSchema,
    lottieUrl: z.string().trim().max(2048).optional(),
    tags: tagFieldsSchema.optional(),
    emoji: emojiFieldsSchema.optional(),
    keywords: keywordFieldsSchema.optional(),
    licence: licenceSchema.optional(),
    credit: creditSchema.optional(),
    sensitive: flagFieldSchema.optional(),
  })
  .strict()

/** PUT /api/wumpuses/{id}: every field optional; `tags`, `emoji` and `keywords` replace the animation's ([] removes them). */
export const updateWumpusSchema = z
  .object({
    name: wumpusNameSchema,
    description: wumpusDescriptionSchema,
    files: fileIdsSchema.partial(),
    tags: tagsSchema,
    emoji: stickerEmojiListSchema,
    keywords: keywordsSchema,
    licence: licenceSchema,
    credit: creditSchema,
    sensitive: z.boolean(),
  })
  .partial()
  .strict()
export type UpdateWumpus = z.infer<typeof updateWumpusSchema>
/** The body as a client sends it (emoji as characters). */
export type UpdateWumpusBody = z.input<typeof updateWumpusSchema>

export const modifiedCountSchema = z.object({ modifiedCount: z.number() })
export const userListSchema = z.array(userSchema)
