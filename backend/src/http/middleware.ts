import { randomUUID } from 'node:crypto'
import type { Middleware } from 'koa'
import { ZodError } from 'zod'
import { InvalidCursorError, StoreUnavailableError } from '../store/port'
import type { Logger } from '../logger'
import { HttpError } from './http-error'

const REQUEST_ID = /^[\w.-]{1,64}$/

/** Tags each request with an id (kept from a trusted-looking X-Request-Id header) and logs it once done. */
export function requestLog(logger: Logger): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id')
    const id = REQUEST_ID.test(incoming) ? incoming : randomUUID()
    ctx.state.requestId = id
    ctx.set('X-Request-Id', id)
    const started = performance.now()
    try {
      await next()
    } finally {
      logger.debug('request', {
        requestId: id,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      })
    }
  }
}

/** Turns every thrown error into the one error shape; unexpected ones are logged and answered as 500. */
export function errorShape(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next()
      if (ctx.status === 404 && ctx.body == null) {
        throw new HttpError('NOT_FOUND', ctx.path.startsWith('/api/') ? 'No such API endpoint' : 'Not found')
      }
    } catch (caught) {
      const error = toHttpError(caught)
      if (error.status >= 500 && error.code !== 'STORE_UNAVAILABLE') {
        logger.error('unhandled error', { requestId: ctx.state.requestId, path: ctx.path, error: String(caught), stack: (caught as Error)?.stack })
      }
      ctx.status = error.status
      ctx.set('Cache-Control', 'no-store')
      ctx.body = { error: { code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) } }
    }
  }
}

function toHttpError(caught: unknown): HttpError {
  if (caught instanceof HttpError) return caught
  if (caught instanceof ZodError) {
    return new HttpError('BAD_REQUEST', 'The request is not valid', caught.issues.map((i) => ({ path: i.path.join('.'), message: i.message })))
  }
  if (caught instanceof InvalidCursorError) return new HttpError('BAD_REQUEST', caught.message)
  if (caught instanceof StoreUnavailableError) return new HttpError('STORE_UNAVAILABLE', 'The store is unavailable, try again shortly')
  // Errors from koa-body / http-errors carry a status: body too large, malformed JSON, wrong type.
  const status = (caught as { status?: unknown })?.status
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 413) return new HttpError('PAYLOAD_TOO_LARGE', 'The request body is too large')
    if (status === 415) return new HttpError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported content type')
    if (status === 401) return new HttpError('UNAUTHENTICATED', 'Sign in first')
    if (status === 403) return new HttpError('FORBIDDEN', 'Not allowed')
    if (status === 404) return new HttpError('NOT_FOUND', 'Not found')
    if (status === 405) return new HttpError('METHOD_NOT_ALLOWED', 'This method is not allowed here')
    return new HttpError('BAD_REQUEST', status === 400 ? 'The request body is not valid JSON' : 'Bad request')
  }
  return new HttpError('INTERNAL', 'Something went wrong on our side')
}

/** Security headers for every response. The CSP allows only our own origin (plus data:/blob: media). */
export function securityHeaders(options: { authEmulatorOrigin?: string; inlineScriptHashes?: string[] } = {}): Middleware {
  const connect = ["'self'", 'https://*.googleapis.com', 'https://*.firebaseio.com', 'https://*.firebaseapp.com']
  if (options.authEmulatorOrigin) connect.push(options.authEmulatorOrigin)
  const csp = [
    "default-src 'self'",
    ["script-src 'self' https://apis.google.com", ...(options.inlineScriptHashes ?? []).map((h) => `'${h}'`)].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${connect.join(' ')}`,
    "frame-src 'self' https://*.firebaseapp.com https://accounts.google.com" + (options.authEmulatorOrigin ? ` ${options.authEmulatorOrigin}` : ''),
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ')
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff')
    ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin')
    ctx.set('X-Frame-Options', 'DENY')
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin-allow-popups')
    ctx.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=()')
    ctx.set('Content-Security-Policy', csp)
    await next()
  }
}

/**
 * Serializes object bodies once, into a Buffer. Left as objects, Koa would stringify them twice:
 * once when koa-compress asks for the length, again when it writes the response.
 */
export function serializeJson(): Middleware {
  return async (ctx, next) => {
    await next()
    const body = ctx.body
    if (body === null || typeof body !== 'object' || Buffer.isBuffer(body) || typeof (body as { pipe?: unknown }).pipe === 'function') return
    const type = ctx.response.get('Content-Type')
    ctx.body = Buffer.from(JSON.stringify(body))
    ctx.type = type || 'application/json; charset=utf-8'
  }
}
