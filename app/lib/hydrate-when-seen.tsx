// Hydration only where it is needed. On the server-rendered page a card is a link, an image and a Save button:
// until it comes near the screen, or someone points at, taps or focuses it, React leaves its server HTML as it
// is (a Suspense boundary waiting for its gate) instead of hydrating a dozen cards a phone does not show yet.
// A tap on a card not yet hydrated opens its gate before React sees the event, so React hydrates it at once
// and handles the tap (a click is never dropped, a link never falls back to a full page load).
import { Suspense, use, type ReactNode } from 'react'

const MARK = 'data-hydrate-when-seen'
/** Cards this close to the screen hydrate, so they are ready when they scroll in. */
const NEAR_SCREEN = '300px'

interface Gate {
  /** Fulfilled once open, and marked so: React's `use` then reads it at once (a hydration React does for a tap does not wait). */
  opened: Promise<void>
  isOpen: boolean
  open: () => void
  /** The server-rendered element it holds. */
  element: Element
  /** Its first hydration attempt waited. */
  waited: boolean
}

/** One per server-rendered element marked at start; parts rendered later have none and render at once. */
const gates = new Map<string, Gate>()

function createGate(element: Element): Gate {
  let resolve = () => {}
  const opened = new Promise<void>((done) => (resolve = done))
  const gate: Gate = {
    opened,
    isOpen: false,
    element,
    waited: false,
    open() {
      if (gate.isOpen) return
      gate.isOpen = true
      // How React's `use` knows a promise has settled without waiting for it.
      void Object.assign(opened, { status: 'fulfilled', value: undefined })
      resolve()
    },
  }
  return gate
}

const gateOf = (element: Element) => gates.get(element.getAttribute(MARK)!)

function openNearest(event: Event): void {
  const marked = event.target instanceof Element ? event.target.closest(`[${MARK}]`) : null
  if (marked) gateOf(marked)?.open()
}

/**
 * Called before hydrating server-rendered HTML: the parts wrapped in `HydrateWhenSeen` then hydrate as they
 * come near the screen or someone reaches for them.
 */
export function hydrateWhenSeen(): void {
  const marked = [...document.querySelectorAll(`[${MARK}]`)]
  for (const element of marked) gates.set(element.getAttribute(MARK)!, createGate(element))
  // Capture on the document runs before React's own listeners on the root.
  for (const type of ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'click', 'keydown']) {
    document.addEventListener(type, openNearest, { capture: true, passive: true })
  }
  if (typeof IntersectionObserver === 'undefined') {
    for (const element of marked) gateOf(element)?.open()
    return
  }
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries.filter((entry) => entry.isIntersecting)) {
        gateOf(entry.target)?.open()
        observer.unobserve(entry.target)
      }
    },
    { rootMargin: NEAR_SCREEN },
  )
  for (const element of marked) observer.observe(element)
}

function WaitUntilSeen({ id }: { id: string }) {
  const gate = gates.get(id)
  if (gate && !gate.isOpen) {
    // Rendered again before it was seen: new props or context must show now. Rendered anew after its server
    // HTML went (a client navigation back): nothing to hydrate.
    if (gate.waited || !gate.element.isConnected) gate.open()
    else {
      gate.waited = true
      use(gate.opened)
    }
  }
  return null
}

/**
 * Hydrates `children` once seen or reached for (see above). Its root element carries
 * `data-hydrate-when-seen={id}`, the element watched.
 */
export function HydrateWhenSeen({ id, children }: { id: string; children: ReactNode }) {
  return (
    <Suspense fallback={null}>
      <WaitUntilSeen id={id} />
      {children}
    </Suspense>
  )
}
