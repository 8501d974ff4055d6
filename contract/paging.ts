import { z } from 'zod'
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './limits'

/** An opaque cursor from a list's Link header (rel="next"). */
export const cursorSchema = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/, 'Not a valid cursor')

/** The query of a list paged by cursor: `?limit=&cursor=`, nothing else. */
export const pageQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
    cursor: cursorSchema.optional(),
  })
  .strict()
