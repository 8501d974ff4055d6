import { isErrorBody, type ErrorCode } from '../../contract/errors'
import type { ApiAnswer, ApiAnswers } from '../../contract/ssr'

export const ACCESS_TOKEN_KEY = 'accessToken'

/** Server error codes plus two the client adds: no answer at all, or an answer we cannot read. */
export type ApiErrorCode = ErrorCode | 'NETWORK_ERROR' | 'BAD_RESPONSE'

export class ApiError extends Error {
  override readonly name = 'ApiError'
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message)
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status)
}

export function getAccessToken(): string | null {
  try {
    return window.localStorage.getItem(ACCESS_TOKEN_KEY)
  } catch {
    return null
  }
}

export interface ApiResponse<T> {
  data: T
  headers: Headers
}

export type RequestOptions = Omit<RequestInit, 'body'> & {
  body?: unknown
  /**
   * Fraction of the request body sent so far, from 0 to 1. Only XMLHttpRequest reports this, so a
   * request with it is sent by XHR (same headers, same renewal on 401); the fraction restarts on a retry.
   */
  onUploadProgress?: (fraction: number) => void
}

type UnauthorizedHandler = () => Promise<string | null>
let onUnauthorized: UnauthorizedHandler | null = null

/**
 * Called when a request sent with the stored session token gets 401: it renews the session and
 * resolves to the new token (the request is then retried once) or null (the 401 stands).
 */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  onUnauthorized = handler
}

/** Answers that came with a server-rendered page, each used once by the first GET of its path. */
const primedAnswers = new Map<string, ApiAnswer>()

/** Server rendering and hydration: the page's API reads are answered from these instead of the network. */
export function primeApiAnswers(answers: ApiAnswers): void {
  primedAnswers.clear()
  for (const [path, answer] of Object.entries(answers)) primedAnswers.set(path, answer)
}

function takePrimedAnswer(path: string, method = 'GET'): Response | undefined {
  const answer = method === 'GET' ? primedAnswers.get(path) : undefined
  if (!answer) return undefined
  primedAnswers.delete(path)
  return new Response(answer.body, { status: answer.status, headers: answer.headers })
}

/** fetch with the bearer token, absolute same-origin URL and errors mapped to ApiError. */
async function send(path: string, { body, headers, onUploadProgress, ...init }: RequestOptions = {}): Promise<Response> {
  const primed = takePrimedAnswer(path, init.method)
  if (primed) {
    if (!primed.ok) throw await toApiError(primed)
    return primed
  }
  const requestHeaders = new Headers(headers)
  // An explicit Authorization (e.g. a Firebase ID token) is never renewed or retried.
  const usesSessionToken = !requestHeaders.has('Authorization')
  let requestBody: BodyInit | undefined
  if (body instanceof FormData || body instanceof Blob) {
    requestBody = body
  } else if (body !== undefined) {
    requestHeaders.set('Content-Type', 'application/json')
    requestBody = JSON.stringify(body)
  }

  const attempt = async (token: string | null): Promise<Response> => {
    if (usesSessionToken) {
      if (token) requestHeaders.set('Authorization', `Bearer ${token}`)
      else requestHeaders.delete('Authorization')
    }
    const url = new URL(path, window.location.origin)
    const request = { ...init, headers: requestHeaders, body: requestBody }
    try {
      if (!onUploadProgress) return await fetch(url, request)
      // Only uploads (signed-in users) report progress: that code is not part of every page's first load.
      const { sendWithProgress } = await import('./send-with-progress')
      return await sendWithProgress(url, request, onUploadProgress)
    } catch (error) {
      if (init.signal?.aborted) throw error
      throw new ApiError(0, 'NETWORK_ERROR', 'Could not reach the server. Check your connection and try again.')
    }
  }

  const token = usesSessionToken ? getAccessToken() : null
  let response = await attempt(token)
  if (response.status === 401 && token && onUnauthorized) {
    const renewed = await onUnauthorized()
    if (renewed) response = await attempt(renewed)
  }
  if (!response.ok) throw await toApiError(response)
  return response
}

async function toApiError(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => undefined)
  if (isErrorBody(body)) {
    const { code, message, details } = body.error
    return new ApiError(response.status, code, message, details)
  }
  return new ApiError(response.status, 'BAD_RESPONSE', `The server answered with an unexpected error (HTTP ${response.status}).`)
}

/**
 * Checks a response body: a contract zod schema fits. The read paths, and the actions on the server-rendered
 * pages (a pack's Telegram and Discord buttons, deleting a pack), pass `trusted<T>()` instead, so those pages
 * load without zod (our own server's answers are typed by the contract).
 */
export interface ResponseParser<T> {
  safeParse(body: unknown): { success: true; data: T } | { success: false; error: { issues: unknown } }
}

/** A parser that takes the body as the contract type says it is. */
export function trusted<T>(): ResponseParser<T> {
  return {
    safeParse: (body) =>
      body === undefined ? { success: false, error: { issues: ['no JSON body'] } } : { success: true, data: body as T },
  }
}

/** Any request (GET, POST, PUT, DELETE) whose answer is JSON, checked with the parser; with the answer's headers (paging). */
export async function apiRequestWithHeaders<T>(path: string, parser: ResponseParser<T>, options?: RequestOptions): Promise<ApiResponse<T>> {
  const response = await send(path, { ...options, headers: withAccept(options?.headers, 'application/json') })
  const body: unknown = await response.json().catch(() => undefined)
  const parsed = parser.safeParse(body)
  if (!parsed.success) {
    throw new ApiError(response.status, 'BAD_RESPONSE', 'The server answered with data this app cannot read.', parsed.error.issues)
  }
  return { data: parsed.data, headers: response.headers }
}

/** A request whose answer has no body to read (e.g. 204); errors are thrown as ApiError. */
export async function apiSend(path: string, options?: RequestOptions): Promise<void> {
  await send(path, options)
}

/** Any request (GET, POST, PUT, DELETE) whose answer is JSON, checked with the parser. */
export async function apiRequest<T>(path: string, parser: ResponseParser<T>, options?: RequestOptions): Promise<T> {
  return (await apiRequestWithHeaders(path, parser, options)).data
}

/** Fetches a file (e.g. an animation) as a Blob. */
export async function apiGetBlob(path: string, options?: RequestOptions): Promise<Blob> {
  return (await apiGetBlobWithHeaders(path, options)).blob
}

/** Fetches a file as a Blob, with the answer's headers. */
export async function apiGetBlobWithHeaders(path: string, options?: RequestOptions): Promise<{ blob: Blob; headers: Headers }> {
  const response = await send(path, options)
  return { blob: await response.blob(), headers: response.headers }
}

function withAccept(headers: HeadersInit | undefined, accept: string): Headers {
  const result = new Headers(headers)
  if (!result.has('Accept')) result.set('Accept', accept)
  return result
}
