import { ZodError } from 'zod'
import { statusOf, type ErrorCode } from '../../../contract/errors'
import { DomainError, type DomainErrorKind } from '../domain/errors'
import { FileInUseError, InvalidCursorError, StoreUnavailableError } from '../store/port'

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

/** Errors of a disk that cannot take writes now (full, over quota, read only, failing): 503, not a bug. */
const DISK_FAULTS = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO'])

export function isDiskFault(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && DISK_FAULTS.has(code)
}

export const storeUnavailable = () => new HttpError('STORE_UNAVAILABLE', 'The store is unavailable, try again shortly')

/** The code each kind of domain error leaves the server with. */
const CODE_OF: Record<DomainErrorKind, ErrorCode> = {
  invalid: 'BAD_REQUEST',
  unauthenticated: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  'not-found': 'NOT_FOUND',
  conflict: 'CONFLICT',
  'too-large': 'PAYLOAD_TOO_LARGE',
  'wrong-type': 'UNSUPPORTED_MEDIA_TYPE',
  'does-not-fit': 'PACK_NOT_FIT',
  'rate-limited': 'RATE_LIMITED',
  busy: 'SERVER_BUSY',
  unavailable: 'STORE_UNAVAILABLE',
}

/** zlib and brotli stream errors: a request body whose Content-Encoding does not decode. */
function isDecodingError(caught: unknown): boolean {
  const code = (caught as { code?: unknown } | null)?.code
  // zlib: Z_DATA_ERROR, Z_BUF_ERROR...; brotli: ERR__ERROR_FORMAT_PADDING_2 and the like.
  return typeof code === 'string' && /^(Z_|ERR__ERROR_|ERR_BROTLI)/.test(code)
}

/**
 * Anything thrown while answering, as the error the client gets: the one place where domain errors, the
 * store's, schema failures and Koa's own become codes and statuses. Anything else is a 500.
 */
export function toHttpError(caught: unknown): HttpError {
  if (caught instanceof HttpError) return caught
  if (caught instanceof DomainError) return new HttpError(CODE_OF[caught.kind], caught.message, caught.details, caught.retryAfterSeconds)
  if (caught instanceof ZodError) {
    return new HttpError(
      'BAD_REQUEST',
      'The request is not valid',
      caught.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    )
  }
  if (caught instanceof InvalidCursorError) return new HttpError('BAD_REQUEST', caught.message)
  if (caught instanceof StoreUnavailableError || isDiskFault(caught)) return storeUnavailable()
  if (caught instanceof FileInUseError)
    return new HttpError('CONFLICT', 'A file of this animation already belongs to another animation', { fileIds: caught.fileIds })
  if (isDecodingError(caught)) return new HttpError('BAD_REQUEST', 'The request body does not match its Content-Encoding')
  // Errors from koa-body / http-errors carry a status: body too large, malformed JSON, wrong type.
  const status = (caught as { status?: unknown })?.status
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 413) return new HttpError('PAYLOAD_TOO_LARGE', 'The request body is too large')
    if (status === 415) {
      const encoding = /Content-Encoding/i.test(String((caught as { message?: unknown }).message))
      return new HttpError('UNSUPPORTED_MEDIA_TYPE', encoding ? 'Unsupported Content-Encoding' : 'Unsupported content type')
    }
    if (status === 401) return new HttpError('UNAUTHENTICATED', 'Sign in first')
    if (status === 403) return new HttpError('FORBIDDEN', 'Not allowed')
    if (status === 404) return new HttpError('NOT_FOUND', 'Not found')
    if (status === 405) return new HttpError('METHOD_NOT_ALLOWED', 'This method is not allowed here')
    return new HttpError('BAD_REQUEST', status === 400 ? 'The request body is not valid JSON' : 'Bad request')
  }
  return new HttpError('INTERNAL', 'Something went wrong on our side')
}
