import { HttpError } from './http-error'
import { idSchema } from '../../../contract/wumpus'

/** The `:id` path parameter when it is a well-formed id; undefined otherwise (the caller answers 404). */
export function idParam(ctx: { params: Record<string, string | undefined> }): string | undefined {
  const id = idSchema.safeParse(ctx.params.id)
  return id.success ? id.data : undefined
}

/** The `:email` path parameter, compared and stored in lower case as Firebase does; 404 when it is not an address. */
export function emailParam(ctx: { params: Record<string, string | undefined> }): string {
  const email = String(ctx.params.email ?? '')
    .trim()
    .toLowerCase()
  if (!email.includes('@') || email.length > 254) throw new HttpError('NOT_FOUND', 'No such user')
  return email
}
