import { z } from 'zod'
import { ID_PATTERN, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './limits'

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
