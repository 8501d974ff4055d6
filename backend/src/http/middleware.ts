import type { IncomingMessage } from 'node:http'
import { randomUUID } from 'node:crypto'
import type { Context, Middleware } from 'koa'
import type { Logger } from '../logger'
import { logSecurityEvent, routePattern } from '../security-log'
import { reasonOf } from '../domain/errors'
import { HttpError, toHttpError } from './http-error'

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

/**
 * The account a request acted for, as far as it was proven: its session, or the Firebase account of a
 * sign-in exchange (ctx.state.account). For the security log.
 */
function provenAccount(ctx: Context): string | undefined {
  const state = ctx.state as { session?: { email: string }; account?: string }
  return state.session?.email ?? state.account
}

/**
 * Turns every thrown error into the one error shape; unexpected ones are logged and answered as 500.
 * Every 401 and 403 is logged as a security event, with the route's pattern (not the path and its emails).
 */
export function errorShape(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next()
      if (ctx.status === 404 && ctx.body == null) {
        throw new HttpError('NOT_FOUND', ctx.path.startsWith('/api/') ? 'No such API endpoint' : 'Not found')
      }
    } catch (caught) {
      const error = toHttpError(caught)
      if (error.status >= 500 && error.code !== 'STORE_UNAVAILABLE' && error.code !== 'SERVER_BUSY') {
        logger.error('unhandled error', {
          requestId: ctx.state.requestId,
          path: ctx.path,
          error: String(caught),
          stack: (caught as Error)?.stack,
        })
      }
      if (error.status === 401 || error.status === 403) {
        logSecurityEvent(logger, {
          event: 'refused',
          status: error.status,
          route: routePattern(ctx),
          reason: reasonOf(error),
          email: provenAccount(ctx),
          ip: ctx.ip,
        })
      }
      ctx.status = error.status
      ctx.set('Cache-Control', 'no-store')
      if (error.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(Math.max(1, Math.ceil(error.retryAfterSeconds))))
      ctx.body = { error: { code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) } }
    } finally {
      // A body left unread (refused early, or cut by a limit) cannot be skipped on a kept-alive
      // connection: say so, so the client does not send its next request on it. What is still coming
      // is read and dropped first, within limits (a lingering close): a socket closed with unread data
      // is reset by the kernel, and the client may lose the answer.
      if (!ctx.req.complete && ctx.req.headers['content-length'] !== '0' && hasBody(ctx.req.headers)) {
        ctx.set('Connection', 'close')
        await dropRestOfBody(ctx.req)
      }
    }
  }
}

const DROP_MAX_BYTES = 32 * 1024 * 1024
const DROP_MAX_MS = 5_000

function dropRestOfBody(req: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    if (req.complete || req.destroyed) return resolve()
    let seen = 0
    const done = () => {
      clearTimeout(timer)
      req.off('data', onData).off('end', done).off('error', done).off('close', done)
      resolve()
    }
    const onData = (chunk: Buffer) => {
      seen += chunk.length
      if (seen > DROP_MAX_BYTES) done()
    }
    const timer = setTimeout(done, DROP_MAX_MS)
    // Whatever parser was reading the body (a multipart upload cut by a limit) reads no more of it.
    req.unpipe()
    req.on('data', onData).once('end', done).once('error', done).once('close', done)
    req.resume()
  })
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0')
}

/** The hosts the Firebase Auth SDK calls: sign-in (Identity Toolkit) and token refresh (Secure Token). */
export const FIREBASE_AUTH_HOSTS = ['https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com']

/** What a response that is not a page gets: if it is ever opened as one, nothing in it runs or loads. */
export const LOCKED_DOWN_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox"

/** Headers that only mean something on a page (or a worker, which a CSP also governs). */
const PAGE_ONLY_HEADERS = ['Referrer-Policy', 'X-Frame-Options', 'Cross-Origin-Opener-Policy', 'Permissions-Policy']

/**
 * Security headers. Pages (HTML) and the service worker script get the page policy: a CSP allowing only
 * our own origin (plus data:/blob: media) and the two Firebase Auth hosts, framing refused, and so on.
 * Every other response (scripts, styles, images, API answers) gets nosniff and a locked-down CSP only:
 * the page policy is over 1 KB and would be sent again with each of the hundred-odd files a first visit
 * and the service worker fetch. Production adds HSTS everywhere (it is served over https there).
 */
export function securityHeaders(options: { authEmulatorOrigin?: string; inlineScriptHashes?: string[]; hsts?: boolean } = {}): Middleware {
  const connect = ["'self'", ...FIREBASE_AUTH_HOSTS]
  if (options.authEmulatorOrigin) connect.push(options.authEmulatorOrigin)
  const csp = [
    "default-src 'self'",
    ["script-src 'self' https://apis.google.com", ...(options.inlineScriptHashes ?? []).map((h) => `'${h}'`)].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${connect.join(' ')}`,
    "frame-src 'self' https://*.firebaseapp.com https://accounts.google.com" +
      (options.authEmulatorOrigin ? ` ${options.authEmulatorOrigin}` : ''),
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ')
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff')
    if (options.hsts) ctx.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains')
    // Set before the handlers run: server-rendered pages add their inline scripts' hashes to it.
    ctx.set('Content-Security-Policy', csp)
    ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin')
    ctx.set('X-Frame-Options', 'DENY')
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin-allow-popups')
    ctx.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=()')
    try {
      await next()
    } finally {
      const isPage = Boolean(ctx.response.is('html')) || ctx.get('Service-Worker') === 'script'
      if (!isPage) {
        for (const name of PAGE_ONLY_HEADERS) ctx.remove(name)
        ctx.set('Content-Security-Policy', LOCKED_DOWN_CSP)
      }
    }
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
    if (body === null || typeof body !== 'object' || Buffer.isBuffer(body) || typeof (body as { pipe?: unknown }).pipe === 'function')
      return
    const type = ctx.response.get('Content-Type')
    ctx.body = Buffer.from(JSON.stringify(body))
    ctx.type = type || 'application/json; charset=utf-8'
  }
}

/**
 * koa-compress fails when the client accepts no coding we have, identity included
 * (`Accept-Encoding: identity;q=0`); such a response is then sent as it is, uncompressed.
 */
export function identityWhenNothingElse(): Middleware {
  return async (ctx, next) => {
    if (ctx.get('Accept-Encoding') && !ctx.acceptsEncodings('br', 'gzip', 'deflate', 'identity')) ctx.compress = false
    await next()
  }
}
