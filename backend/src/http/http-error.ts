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

/** The machine-readable reason an error gives (`details.reason`: 'expired', 'session-idle'…), if any. */
export function reasonOf(error: HttpError): string | undefined {
  const reason = (error.details as { reason?: unknown } | undefined)?.reason
  return typeof reason === 'string' ? reason : undefined
}

export const badRequest = (message: string, details?: unknown) => new HttpError('BAD_REQUEST', message, details)
export const notFound = (message = 'Not found') => new HttpError('NOT_FOUND', message)

/** Errors of a disk that cannot take writes now (full, over quota, read only, failing): 503, not a bug. */
const DISK_FAULTS = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO'])

export function isDiskFault(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && DISK_FAULTS.has(code)
}

export const storeUnavailable = () => new HttpError('STORE_UNAVAILABLE', 'The store is unavailable, try again shortly')
