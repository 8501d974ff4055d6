import { describe, expect, it } from 'vitest'
import { busy, conflict, DomainError, type DomainErrorKind } from '../domain/errors'
import { HttpError, toHttpError } from './http-error'

describe('toHttpError', () => {
  it('answers each kind of domain error with its code and status, its message and details as they are', () => {
    const expected: Record<DomainErrorKind, [string, number]> = {
      invalid: ['BAD_REQUEST', 400],
      unauthenticated: ['UNAUTHENTICATED', 401],
      forbidden: ['FORBIDDEN', 403],
      'not-found': ['NOT_FOUND', 404],
      conflict: ['CONFLICT', 409],
      'too-large': ['PAYLOAD_TOO_LARGE', 413],
      'wrong-type': ['UNSUPPORTED_MEDIA_TYPE', 415],
      'does-not-fit': ['PACK_NOT_FIT', 422],
      'rate-limited': ['RATE_LIMITED', 429],
      busy: ['SERVER_BUSY', 503],
      unavailable: ['STORE_UNAVAILABLE', 503],
    }
    for (const [kind, [code, status]] of Object.entries(expected)) {
      const error = toHttpError(new DomainError(kind as DomainErrorKind, `A ${kind} refusal`, { reason: kind }))
      expect(error).toBeInstanceOf(HttpError)
      expect({ code: error.code, status: error.status, message: error.message, details: error.details }).toEqual({
        code,
        status,
        message: `A ${kind} refusal`,
        details: { reason: kind },
      })
    }
  })

  it('keeps when to try again, and leaves details out when there are none', () => {
    const error = toHttpError(busy('The server is busy', 7, { retryAfterSeconds: 7 }))
    expect(error.retryAfterSeconds).toBe(7)
    expect(error.details).toEqual({ retryAfterSeconds: 7 })
    expect(toHttpError(conflict('Taken')).details).toBeUndefined()
  })
})
