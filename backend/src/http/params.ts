import { idSchema } from '../../../contract/wumpus'

/** The `:id` path parameter when it is a well-formed id; undefined otherwise (the caller answers 404). */
export function idParam(ctx: { params: Record<string, string | undefined> }): string | undefined {
  const id = idSchema.safeParse(ctx.params.id)
  return id.success ? id.data : undefined
}
