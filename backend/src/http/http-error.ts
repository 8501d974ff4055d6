import { statusOf, type ErrorCode } from '../../../contract/errors'

/** An error that leaves the server as `{ error: { code, message, details? } }` with its status. */
export class HttpError extends Error {
  readonly status: number
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    /** Sent as Retry-After (429, 503). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message)
    this.name = 'HttpError'
    this.status = statusOf[code]
  }
}

export const badRequest = (message: string, details?: unknown) => new HttpError('BAD_REQUEST', message, details)
export const notFound = (message = 'Not found') => new HttpError('NOT_FOUND', message)
