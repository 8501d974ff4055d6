import type { Server } from 'node:http'
import type { Middleware } from 'koa'
import type { Duplex } from 'node:stream'
import type { ErrorBody, ErrorCode } from '../../../contract/errors'
import { statusOf } from '../../../contract/errors'

/** Time allowed for a request's headers, and for a whole request (an 8 MB upload on a slow line fits). */
export const HEADERS_TIMEOUT_MS = 20_000
export const REQUEST_TIMEOUT_MS = 120_000

const REASON: Partial<Record<number, string>> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }

/**
 * Settings and answers for what Node's HTTP parser refuses before Koa sees a request: headers or a
 * URL over Node's 16 KB limit get a 431 and malformed requests a 400, both in the API's error shape
 * (Node's own answer has an empty body), and slow senders are cut off.
 */
export function hardenServer(server: Server): Server {
  server.headersTimeout = HEADERS_TIMEOUT_MS
  server.requestTimeout = REQUEST_TIMEOUT_MS
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const response = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage
    if (error.code === 'ECONNRESET' || !socket.writable || response?.headersSent) {
      socket.destroy()
      return
    }
    if (error.code === 'HPE_HEADER_OVERFLOW') {
      answer(socket, 'REQUEST_HEADERS_TOO_LARGE', 'The request headers or URL are too large (16 KB at most)')
    } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      answer(socket, 'BAD_REQUEST', 'The request took too long to arrive', 408)
    } else {
      answer(socket, 'BAD_REQUEST', 'The request is not valid HTTP')
    }
  })
  return server
}

function answer(socket: Duplex, code: ErrorCode, message: string, status = statusOf[code]): void {
  const body = JSON.stringify({ error: { code, message } } satisfies ErrorBody)
  socket.end(
    `HTTP/1.1 ${status} ${REASON[status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\n' +
      'X-Content-Type-Options: nosniff\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  )
}

/**
 * For answers that cost work (a converted picture, a pack, a ZIP stream): once the handler is done, a
 * client that takes nothing of the answer for `seconds` is cut off, and the body (a stream and what it
 * holds) goes with its socket. Node sets no such limit: requestTimeout ends once the request is read.
 * A finished answer hands its kept-alive socket back to the server's own idle timeout.
 */
export function sendTimeout(seconds: number): Middleware {
  return async (ctx, next) => {
    await next()
    ctx.res.setTimeout(seconds * 1000, () => ctx.res.destroy())
  }
}
