// Benchmarks' helper: the requests a page makes, seen through the DevTools protocol on the page's own target
// (requests from its dedicated or service workers are not in it), with the bytes each took on the wire
// (Chromium's encoded size: headers plus the body as sent, compressed or not), and a wait until the
// network has been quiet for a while.
import type { CDPSession } from 'playwright-core'

export const RESOURCE_KINDS = ['document', 'script', 'stylesheet', 'image', 'fetch/xhr', 'font', 'other'] as const
export type ResourceKind = (typeof RESOURCE_KINDS)[number]

export interface LoggedResponse {
  url: string
  kind: ResourceKind
  /** Encoded bytes on the wire, headers included (0 when served from the browser's cache). */
  bytes: number
}

export interface NetworkLog {
  /** Every finished http(s) request so far, in the order they finished. */
  responses: LoggedResponse[]
  /** Starts the quiet period anew (call it right after doing something that may make requests). */
  touch(): void
  /**
   * Resolves once no request has been in flight for `quietMs`. After `timeoutMs` it warns, names what is
   * still in flight and forgets it, so one request the protocol never reports finished does not stop a bench.
   */
  quiet(quietMs?: number, timeoutMs?: number): Promise<void>
}

const KIND_OF_TYPE: Record<string, ResourceKind> = {
  Document: 'document',
  Script: 'script',
  Stylesheet: 'stylesheet',
  Image: 'image',
  Fetch: 'fetch/xhr',
  XHR: 'fetch/xhr',
  Font: 'font',
}
// Connections that stay open by design are not "in flight" for the quiet wait.
const LONG_LIVED = new Set(['EventSource', 'WebSocket'])

export async function watchNetwork(cdp: CDPSession): Promise<NetworkLog> {
  const inFlight = new Map<string, { url: string; kind: ResourceKind }>()
  const responses: LoggedResponse[] = []
  let lastActivity = performance.now()
  const touch = () => void (lastActivity = performance.now())

  cdp.on('Network.requestWillBeSent', (event) => {
    touch()
    if (LONG_LIVED.has(event.type ?? '')) return
    inFlight.set(event.requestId, { url: event.request.url, kind: KIND_OF_TYPE[event.type ?? ''] ?? 'other' })
  })
  cdp.on('Network.dataReceived', touch)
  cdp.on('Network.loadingFinished', (event) => {
    touch()
    const request = inFlight.get(event.requestId)
    inFlight.delete(event.requestId)
    if (request && /^https?:/.test(request.url)) responses.push({ ...request, bytes: event.encodedDataLength })
  })
  cdp.on('Network.loadingFailed', (event) => {
    touch()
    inFlight.delete(event.requestId)
  })
  await cdp.send('Network.enable')

  return {
    responses,
    touch,
    async quiet(quietMs = 500, timeoutMs = 60_000) {
      const started = performance.now()
      while (inFlight.size > 0 || performance.now() - lastActivity < quietMs) {
        if (performance.now() - started > timeoutMs) {
          console.warn(
            `  (network not quiet after ${timeoutMs / 1000} s; still in flight: ${[...inFlight.values()].map((r) => r.url).join(', ')})`,
          )
          inFlight.clear()
          return
        }
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
  }
}
