// Test helpers for what the app keeps on the device (component tests import 'fake-indexeddb/auto' first).
import { clear, keys } from 'idb-keyval'
import { http, HttpResponse } from 'msw'
import { vi } from 'vitest'
import type { Wumpus } from '../../contract/wumpus'
import { offlineStore, STORE_NAMES, type StoreName } from '../lib/local-data/stores'
import { resetSavedStickersForTest } from '../lib/local-data/saved-stickers'

/** Empties every offline store and forgets what the saved-stickers module read. */
export async function resetOfflineData(): Promise<void> {
  await Promise.all(STORE_NAMES.map((name) => clear(offlineStore(name))))
  resetSavedStickersForTest()
}

export const storedKeys = (name: StoreName) => keys<string>(offlineStore(name))

/** Distinct bytes per format and sticker, so a mix-up shows. */
export function fileBytes(wumpus: Wumpus, format: 'gif' | 'apng' | 'lottie'): Uint8Array {
  return new TextEncoder().encode(`${format} of ${wumpus._id}`)
}

const TYPES = { gif: 'image/gif', apng: 'image/apng', lottie: 'application/json' } as const

/** GET handlers for the three files of each sticker. */
export function fileHandlers(wumpuses: Wumpus[]) {
  return wumpuses.flatMap((wumpus) =>
    (['gif', 'apng', 'lottie'] as const).map((format) =>
      http.get(wumpus[format], () => new HttpResponse(fileBytes(wumpus, format), { headers: { 'Content-Type': TYPES[format] } })),
    ),
  )
}

/** GET handlers answering each URL with its own path as bytes, typed as given (previews, chat app files). */
export function namedFileHandlers(files: Array<{ url: string; contentType: string }>) {
  return files.map(({ url, contentType }) =>
    http.get(url, () => new HttpResponse(new TextEncoder().encode(url), { headers: { 'Content-Type': contentType } })),
  )
}

/** navigator.storage with spies; `usage` can be changed between calls. */
export function stubStorage(figures = { usage: 3 * 1024 * 1024, quota: 2 * 1024 ** 3 }) {
  const storage = {
    figures,
    persist: vi.fn(async () => true),
    persisted: vi.fn(async () => false),
    estimate: vi.fn(async () => ({ usage: storage.figures.usage, quota: storage.figures.quota })),
  }
  Object.defineProperty(navigator, 'storage', { value: storage, configurable: true })
  return storage
}

/** Makes the browser report being offline (or online again) and fires the event. */
export function goOffline(offline = true): void {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(!offline)
  window.dispatchEvent(new Event(offline ? 'offline' : 'online'))
}
