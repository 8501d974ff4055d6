import '@testing-library/jest-dom/vitest'
import { notifications } from '@mantine/notifications'
import { cleanup } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, vi } from 'vitest'
import { server } from './msw-server'
import { IntersectionObserverStub } from './intersection-observer-stub'

// jsdom lacks these browser APIs; Mantine and the gallery's infinite scroll use them.
window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }) as MediaQueryList

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver
globalThis.IntersectionObserver = IntersectionObserverStub as unknown as typeof IntersectionObserver
window.scrollTo = () => {}

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  notifications.clean()
  server.resetHandlers()
  IntersectionObserverStub.instances.clear()
  window.localStorage.clear()
})
afterAll(() => server.close())
