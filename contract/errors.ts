/** Every error the API returns has this shape and one of these codes. */
export const errorCodes = [
  'BAD_REQUEST',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'REQUEST_HEADERS_TOO_LARGE',
  'RATE_LIMITED',
  'STORE_UNAVAILABLE',
  'SERVER_BUSY',
  'PACK_NOT_FIT',
  'INTERNAL',
] as const
export type ErrorCode = (typeof errorCodes)[number]

export const statusOf: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  REQUEST_HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  STORE_UNAVAILABLE: 503,
  /** Too much work queued (renders): try again after Retry-After. */
  SERVER_BUSY: 503,
  /** A pack that breaks a chat platform's pack rules (WhatsApp: 3 to 30 stickers): the message says which. */
  PACK_NOT_FIT: 422,
  INTERNAL: 500,
}

/** The one error shape of the API. */
export interface ErrorBody {
  error: {
    code: ErrorCode
    message: string
    /** Machine-readable detail, e.g. which field failed or why a file was refused. */
    details?: unknown
  }
}

/** Whether a parsed response body is the API's error shape. (No zod here: the home page imports this.) */
export function isErrorBody(body: unknown): body is ErrorBody {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error
  return typeof error?.message === 'string' && (errorCodes as readonly unknown[]).includes(error.code)
}
