/**
 * What the rules refuse, in the domain's terms. Services (and the auth and media code below them) throw
 * these, never HTTP errors; the HTTP edge answers each kind with its status in the one error shape
 * (http/http-error.ts). The message and `details` (the machine-readable reason, field or limit that clients
 * read) go out as they are.
 */
export type DomainErrorKind =
  /** Input the rules do not take (400). */
  | 'invalid'
  /** No proof of who asks, or a session that ended (401). */
  | 'unauthenticated'
  /** Someone known who may not do this (403). */
  | 'forbidden'
  /** Nothing there, or nothing the caller may see (404). */
  | 'not-found'
  /** What is there now forbids it: a cap reached, a change under way elsewhere (409). */
  | 'conflict'
  /** More bytes than the rules allow (413). */
  | 'too-large'
  /** A file of another kind than the one asked for (415). */
  | 'wrong-type'
  /** A pack that breaks a chat platform's pack rules (422). */
  | 'does-not-fit'
  /** A budget of this caller's is spent: try again after `retryAfterSeconds` (429). */
  | 'rate-limited'
  /** Too much work queued: try again after `retryAfterSeconds` (503). */
  | 'busy'
  /** Something the rules depend on is out of reach now: the store, the disk, the identity provider (503). */
  | 'unavailable'

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** Machine-readable detail, sent to the client as it is. */
    readonly details?: unknown,
    /** When to try again (rate-limited, busy, unavailable). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message)
    this.name = 'DomainError'
  }
}

export const invalid = (message: string, details?: unknown) => new DomainError('invalid', message, details)
export const unauthenticated = (message: string, details?: unknown) => new DomainError('unauthenticated', message, details)
export const forbidden = (message: string, details?: unknown) => new DomainError('forbidden', message, details)
export const notFound = (message: string, details?: unknown) => new DomainError('not-found', message, details)
export const conflict = (message: string, details?: unknown) => new DomainError('conflict', message, details)
export const tooLarge = (message: string, details?: unknown) => new DomainError('too-large', message, details)
export const wrongType = (message: string, details?: unknown) => new DomainError('wrong-type', message, details)
export const doesNotFit = (message: string, details?: unknown) => new DomainError('does-not-fit', message, details)
export const rateLimited = (message: string, retryAfterSeconds: number, details?: unknown) =>
  new DomainError('rate-limited', message, details, retryAfterSeconds)
export const busy = (message: string, retryAfterSeconds: number, details?: unknown) =>
  new DomainError('busy', message, details, retryAfterSeconds)
export const unavailable = (message: string, details?: unknown) => new DomainError('unavailable', message, details)

/** The machine-readable reason a refusal gives (`details.reason`: 'expired', 'session-idle'…), if any. */
export function reasonOf(error: { details?: unknown }): string | undefined {
  const reason = (error.details as { reason?: unknown } | undefined)?.reason
  return typeof reason === 'string' ? reason : undefined
}
