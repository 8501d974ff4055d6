import { z } from 'zod'
import { ID_PATTERN, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './limits'

/**
 * Card previews made from the Lottie: animated WebP at 1x (`webp`, 300 px) and 2x (`webp2x`,
 * 600 px) of the card image, and a still WebP of the first frame (600 px).
 */
export const wumpusPreviewSchema = z.object({
  webp: z.string(),
  webp2x: z.string(),
  still: z.string(),
})
export type WumpusPreview = z.infer<typeof wumpusPreviewSchema>

/**
 * An animation as the API returns it. gif, apng and lottie are URLs on our own server; `preview` is
 * there once the server has made the card previews (until then cards show the GIF).
 */
export const wumpusSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  gif: z.string(),
  apng: z.string(),
  lottie: z.string(),
  preview: wumpusPreviewSchema.optional(),
  u_email: z.string(),
  u_name: z.string(),
})
export type Wumpus = z.infer<typeof wumpusSchema>

export const wumpusListSchema = z.array(wumpusSchema)

/** Ids are 24 lowercase hex characters (ObjectId-like) on every store. */
export const idSchema = z.string().regex(ID_PATTERN, 'Not a valid id')

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
