// Work the first paint and the first tap do not need (offline, install and update code) waits until the
// page has rendered (hydrated), loaded and the browser is idle, so it never competes with hydration on a
// slow phone. The moment is marked `app-interactive` in the performance timeline (bench:bundle reads it).
import { startTransition, useEffect, useState } from 'react'

const IDLE_TIMEOUT_MS = 2000
let rendered: () => void = () => {}
const renderedOnce = new Promise<void>((resolve) => (rendered = resolve))
let interactive: Promise<void> | undefined

/** Called once the app's first render (or hydration) has committed. */
export function pageRendered(): void {
  rendered()
}

/** Resolves once the page has rendered and loaded and the main thread is idle (or two seconds passed). */
export function afterInteractive(): Promise<void> {
  interactive ??= renderedOnce
    .then(
      () =>
        new Promise<void>((resolve) =>
          document.readyState === 'complete' ? resolve() : window.addEventListener('load', () => resolve(), { once: true }),
        ),
    )
    .then(
      () =>
        new Promise<void>((resolve) => {
          if ('requestIdleCallback' in window) window.requestIdleCallback(() => resolve(), { timeout: IDLE_TIMEOUT_MS })
          else setTimeout(resolve, 0)
        }),
    )
    .then(() => void performance.mark?.('app-interactive'))
  return interactive
}

/** False on the first render (server and hydration included), true once `afterInteractive()` resolved. */
export function useAfterInteractive(): boolean {
  const [ready, setReady] = useState(false)
  useEffect(() => {
    let live = true
    // A transition: what turns on now (a dozen cards' players, lazy parts) renders in slices a tap can interrupt.
    void afterInteractive().then(() => live && startTransition(() => setReady(true)))
    return () => {
      live = false
    }
  }, [])
  return ready
}
