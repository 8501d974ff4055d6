import '@testing-library/jest-dom/vitest'
import { notifications } from '@mantine/notifications'
import { cleanup, configure } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, vi } from 'vitest'
import { server } from './msw-server'
import { IntersectionObserverStub } from './intersection-observer-stub'
import { playedLotties } from './lottie-player-fake'

vi.mock('../components/lottie-player', async () => ({ default: (await import('./lottie-player-fake')).FakeLottiePlayer }))

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

// A busy 2-core CI machine can take longer than the default second to render a page.
configure({ asyncUtilTimeout: 5000 })

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  notifications.clean()
  server.resetHandlers()
  IntersectionObserverStub.instances.clear()
  playedLotties.length = 0
  window.localStorage.clear()
})
afterAll(() => server.close())
