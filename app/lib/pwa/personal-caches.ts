// What Cache Storage may keep (issue 32, M4): never an answer the server marks `private` or `no-store`,
// nor a file URL carrying a key (a private remix's files: backend/src/http/file-keys.ts). The service
// worker's caches follow the rule as they fill; at sign-out both the page and the service worker go
// through every cache and drop anything personal that is left (kept by an older worker, or another tab).

import { FILE_KEY_PARAM } from '../../../contract/api-paths'

/** The message that asks the service worker to drop everything personal from Cache Storage; it answers on the given port. */
export const FORGET_PERSONAL_MESSAGE = 'FORGET_PERSONAL'

/** A URL that opens a file with a key: personal to whoever was shown it. */
export function isKeyedUrl(url: string | URL): boolean {
  return new URL(url, 'http://base.invalid').searchParams.has(FILE_KEY_PARAM)
}

/** An answer the server says is one person's (`private`) or not to be kept at all (`no-store`). */
export function isPersonalResponse(response: Pick<Response, 'headers'>): boolean {
  return /(^|[\s,])(private|no-store)\b/i.test(response.headers.get('Cache-Control') ?? '')
}

/** Whether a cache may keep this answer to this request. */
export function mayKeepInCache(request: Pick<Request, 'url'>, response: Pick<Response, 'headers'>): boolean {
  return !isKeyedUrl(request.url) && !isPersonalResponse(response)
}

/**
 * Drops, from every cache, each entry of a keyed URL or whose kept answer is personal. Answers how many
 * went. Never throws (Cache Storage may be missing or closed).
 */
export async function forgetPersonalCaches(storage: CacheStorage | undefined = globalThis.caches): Promise<number> {
  if (!storage) return 0
  let forgotten = 0
  try {
    for (const name of await storage.keys()) {
      const cache = await storage.open(name)
      for (const request of await cache.keys()) {
        const response = isKeyedUrl(request.url) ? undefined : await cache.match(request)
        if (response && mayKeepInCache(request, response)) continue
        if (await cache.delete(request)) forgotten++
      }
    }
  } catch {
    // Nothing more can be done here; the next sign-out tries again.
  }
  return forgotten
}

/** Asks the service worker of this page (if any) to forget what is personal in Cache Storage; resolves once done or at `timeoutMs`. */
export async function forgetPersonalInServiceWorker(timeoutMs = 5000): Promise<void> {
  const worker = typeof navigator === 'undefined' ? undefined : (navigator.serviceWorker?.controller ?? undefined)
  if (!worker) return
  await new Promise<void>((resolve) => {
    const channel = new MessageChannel()
    const timer = setTimeout(resolve, timeoutMs)
    channel.port1.onmessage = () => {
      clearTimeout(timer)
      resolve()
    }
    worker.postMessage({ type: FORGET_PERSONAL_MESSAGE }, [channel.port2])
  })
}
