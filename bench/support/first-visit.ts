// A phone's first visit to a page: every byte the server sends (HTML, JS, CSS, API, images, the service
// worker and what it fetches to keep), counted on the wire by a TCP proxy in front of the
// server, with an empty cache, until the network has been quiet for a while.
import { createServer, connect, type Server, type Socket } from 'node:net'
import type { Browser } from 'playwright-core'
import { newContext, PHONE } from '../../e2e/support/browser'

export interface FirstVisit {
  /** Bytes the server sent, headers included. */
  totalBytes: number
  /** Bytes the page itself asked for (Chromium's encoded sizes), without what the service worker fetches to keep. */
  pageBytes: number
  /** Page requests by kind (document, script, image, fetch...): count and bytes. */
  byType: Record<string, { requests: number; bytes: number }>
}

interface CountingProxy {
  port: number
  sent(): number
  lastActivity(): number
  close(): Promise<void>
}

async function countingProxy(target: URL): Promise<CountingProxy> {
  let sent = 0
  let last = Date.now()
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname)
    sockets.add(client).add(upstream)
    upstream.on('data', (chunk: Buffer) => {
      sent += chunk.length
      last = Date.now()
    })
    client.on('data', () => (last = Date.now()))
    client.pipe(upstream).pipe(client)
    const end = () => {
      client.destroy()
      upstream.destroy()
    }
    client.on('error', end).on('close', end)
    upstream.on('error', end).on('close', end)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    sent: () => sent,
    lastActivity: () => last,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** Loads `path` once in a fresh phone-sized context (375x812) at the given device pixel ratio. */
export async function measureFirstVisit(browser: Browser, baseURL: string, path = '/', deviceScaleFactor = 1): Promise<FirstVisit> {
  const proxy = await countingProxy(new URL(baseURL))
  const context = await newContext(browser, `http://127.0.0.1:${proxy.port}`, {
    viewport: PHONE,
    deviceScaleFactor,
    isMobile: true,
    hasTouch: true,
  })
  try {
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    const types = new Map<string, string>()
    const byType: FirstVisit['byType'] = {}
    let pageBytes = 0
    cdp.on('Network.requestWillBeSent', (event) => types.set(event.requestId, (event.type ?? 'Other').toLowerCase()))
    cdp.on('Network.loadingFinished', (event) => {
      const type = types.get(event.requestId) ?? 'other'
      const entry = (byType[type] ??= { requests: 0, bytes: 0 })
      entry.requests++
      entry.bytes += event.encodedDataLength
      pageBytes += event.encodedDataLength
    })
    await page.goto(path, { waitUntil: 'networkidle' })
    // The service worker may still be filling its cache: wait until nothing moved for a second.
    while (Date.now() - proxy.lastActivity() < 1000) await new Promise((resolve) => setTimeout(resolve, 200))
    return { totalBytes: proxy.sent(), pageBytes, byType }
  } finally {
    await context.close()
    await proxy.close()
  }
}
