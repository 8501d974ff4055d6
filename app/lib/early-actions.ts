// What a person does before the app runs. A server-rendered page shows seconds before a slow phone has run the
// app's scripts: app/index.html's inline script records taps on buttons marked `data-early-action` (and marks
// them aria-busy) and entries in forms so marked. The app stops it as hydration starts (React handles events
// from then on), and each component replays what was done to it once, when it mounts.
import { useEffect, useEffectEvent } from 'react'

declare global {
  interface Window {
    /** Set by app/index.html. `take` answers whether the action was done, once, and clears its busy look. */
    earlyActions?: { stop: () => void; take: (action: string) => boolean }
  }
}

/** Called as hydration starts: from then on React handles the taps. */
export function stopRecordingEarlyActions(): void {
  window.earlyActions?.stop()
}

/** Whether `action` was done before the app ran: true once (the caller performs it). */
export function takeEarlyAction(action: string): boolean {
  return window.earlyActions?.take(action) ?? false
}

/** Performs `action` once the component has mounted if its button was tapped before the app ran. */
export function useEarlyAction(action: string, perform: () => void): void {
  const performOnce = useEffectEvent(perform)
  useEffect(() => {
    if (takeEarlyAction(action)) performOnce()
  }, [action])
}
