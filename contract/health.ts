import { z } from 'zod'

export const readinessSchema = z.object({
  status: z.enum(['ready', 'unavailable']),
  store: z.object({ kind: z.enum(['sqlite', 'mongo']), ok: z.boolean() }),
})
export type Readiness = z.infer<typeof readinessSchema>
