import { z } from 'zod'
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './limits'
import { NAME_PATTERN } from './user'

/** An animation as the API returns it. gif, apng and lottie are URLs on our own server. */
export const wumpusSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  gif: z.string(),
  apng: z.string(),
  lottie: z.string(),
  u_email: z.string(),
  u_name: z.string(),
})
export type Wumpus = z.infer<typeof wumpusSchema>

export const wumpusListSchema = z.array(wumpusSchema)

/** Ids are 24 lowercase hex characters (ObjectId-like) on every store. */
export const idSchema = z.string().regex(/^[0-9a-f]{24}$/, 'Not a valid id')

/** Query of GET /wumpuses and GET /wumpus?u_email=. Unknown keys are refused. */
export const wumpusListQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
    cursor: z
      .string()
      .max(200)
      .regex(/^[A-Za-z0-9_-]+$/, 'Not a valid cursor')
      .optional(),
    u_email: z.string().email().max(254).optional(),
  })
  .strict()
export type WumpusListQuery = z.infer<typeof wumpusListQuerySchema>

/** Response headers of the paged list. */
export const TOTAL_COUNT_HEADER = 'X-Total-Count'
export const LINK_HEADER = 'Link'

// ---- Add animation form (spec section 5; the name rule is 3 characters and so is its message) ----

export const WUMPUS_NAME_MIN = 3
export const WUMPUS_NAME_MAX = 60
export const WUMPUS_DESCRIPTION_MIN = 10
export const WUMPUS_DESCRIPTION_MAX = 500

/** An http(s) link, or one of our own stored files. */
export const LOTTIE_LINK_PATTERN = /^(https?:\/\/[^\s"'<>]+|\/api\/files\/[^\s"'<>]+)$/

/**
 * The add-animation form. `gif`, `apng` and `lottieFile` hold the ids of files already uploaded ('' when
 * none). A Lottie (file or link) is enough: the server can render the GIF and APNG from it, so those two
 * are only required when no Lottie is given; the link is only required when no Lottie file is chosen.
 */
export const addWumpusFormSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'Name is required')
      .regex(NAME_PATTERN, 'Provide a valid name')
      .min(WUMPUS_NAME_MIN, 'Name should be at least 3 characters')
      .max(WUMPUS_NAME_MAX, `Name should be at most ${WUMPUS_NAME_MAX} characters`),
    description: z
      .string()
      .trim()
      .min(1, 'Description is required')
      .min(WUMPUS_DESCRIPTION_MIN, 'Description should be at least 10 characters')
      .max(WUMPUS_DESCRIPTION_MAX, `Description should be at most ${WUMPUS_DESCRIPTION_MAX} characters`),
    lottieLink: z.string().trim().max(2048, 'Enter a valid URL'),
    lottieFile: z.string(),
    apng: z.string(),
    gif: z.string(),
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
