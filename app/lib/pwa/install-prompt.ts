// The browser's offer to install the app (`beforeinstallprompt`, Chromium only), kept until used.
import { useSyncExternalStore } from 'react'

/** Not in TypeScript's DOM types: Chromium's event behind "Install app". */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform: string }>
}

let offer: BeforeInstallPromptEvent | null = null
let capturing = false
const listeners = new Set<() => void>()

function publish(next: BeforeInstallPromptEvent | null) {
  offer = next
  for (const listener of [...listeners]) listener()
}

/**
 * Starts listening (once). Call it early (main.tsx): the event may fire before React renders.
 * Taking the event (preventDefault) keeps the browser's own mini-infobar away; our button offers it.
 */
export function captureInstallPrompt(target: Window = window): void {
  if (capturing) return
  capturing = true
  target.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault()
    publish(event as BeforeInstallPromptEvent)
  })
  target.addEventListener('appinstalled', () => publish(null))
}

/** Shows the browser's install dialog; the offer can be used once. */
export async function promptInstall(): Promise<boolean> {
  const current = offer
  if (!current) return false
  publish(null)
  await current.prompt()
  return (await current.userChoice).outcome === 'accepted'
}

function subscribe(listener: () => void): () => void {
  captureInstallPrompt()
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

/** Whether the browser has offered to install the app (and the offer is not used yet). */
export function useCanInstall(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => offer !== null,
    () => false,
  )
}
