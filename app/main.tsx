import './lib/zod-jitless'
import './mantine-styles.css'
import '@mantine/notifications/styles.css'
import './styles.css'
import { onlineManager } from '@tanstack/react-query'
import { startTransition, StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { holdsPersonalAnswer, SSR_ANSWERS_ELEMENT_ID, type ApiAnswers } from '../contract/ssr'
import { App } from './app'
import { loadShellPieces } from './components/shell-pieces'
import { captureInstallPrompt } from './lib/pwa/install-prompt'
import { afterInteractive } from './lib/after-interactive'
import { stopRecordingEarlyActions } from './lib/early-actions'
import { hydrateWhenSeen } from './lib/hydrate-when-seen'
import { primeApiAnswers } from './lib/api-client'
import { lottieJsonKeys } from './lib/lottie-json'
import { createQueryClient } from './lib/query-client'
import { createSessionStore } from './lib/session'
import { createAppRouter } from './router'

const queryClient = createQueryClient()
const session = createSessionStore({ queryClient })
// Before anything can sign out (a renewal that fails, another tab): the code that forgets loads when needed.
session.onSignOut(() => void import('./lib/local-data/personal-data').then(({ forgetPersonalOfflineData }) => forgetPersonalOfflineData()))
const router = createAppRouter(queryClient, session)

// React Query assumes online until an event says otherwise: a page opened offline must start offline,
// or the 'online' event changes nothing and nothing refetches when the network returns.
onlineManager.setOnline(navigator.onLine)
// The browser may offer installation before React renders: listen at once (a few lines).
captureInstallPrompt()
void afterInteractive().then(async () => {
  // Writes queued on this device (favourites, pack edits) are sent for whoever is signed in: that code
  // (lib/outbox-sync.ts) loads once someone is. Not loaded (offline before it was kept): the next sign-in tries again.
  const syncOutbox = () => {
    if (session.getSnapshot().status !== 'signed-in') return
    import('./lib/outbox-sync').then(({ followSignedInUser }) => followSignedInUser(session, queryClient)).catch(() => {})
  }
  session.subscribe(syncOutbox)
  syncOutbox()
  if (import.meta.env.PROD && 'serviceWorker' in navigator) {
    // Once a first worker controls the page, what is on screen is read again through it, so it is kept
    // for offline use too.
    // Lottie files played so far are only fetched again (the worker keeps them), not parsed and compared again.
    const readAgain = () => {
      const [lottieFiles] = lottieJsonKeys.all
      void queryClient.refetchQueries({ type: 'active', predicate: (query) => query.queryKey[0] !== lottieFiles })
      for (const { queryKey } of queryClient.getQueryCache().findAll({ queryKey: lottieJsonKeys.all })) {
        void fetch(String(queryKey[1]), { headers: { Accept: 'application/json' } }).catch(() => {})
      }
    }
    // Fetched first, so the worker's first install keeps them with the rest of what this visit loaded.
    await loadShellPieces()
    const { registerServiceWorker } = await import('./lib/pwa/register-sw')
    // Registration can be refused (blocked by the browser or its settings): the app still works online.
    await registerServiceWorker(readAgain).catch(() => {})
  }
})

/** How long hydration waits for the server-rendered page's first images at most. */
const FIRST_IMAGES_WAIT_MS = 3000

/**
 * On a slow phone hydration holds the main thread for a while: the page's first images (its largest
 * paint, loaded with high priority) are painted before it starts. Links work as plain links meanwhile.
 */
function firstImagesPainted(): Promise<void> {
  const loading = [...document.querySelectorAll<HTMLImageElement>('img[fetchpriority="high"]')].filter((image) => !image.complete)
  if (loading.length > 0) performance.mark?.('hydration-waits-for-images')
  const loaded = Promise.all(
    loading.map(
      (image) =>
        new Promise((resolve) => {
          image.addEventListener('load', resolve, { once: true })
          image.addEventListener('error', resolve, { once: true })
        }),
    ),
  )
  const waited = Promise.race([loaded, new Promise((resolve) => setTimeout(resolve, FIRST_IMAGES_WAIT_MS))])
  // A frame after they load, so they are on screen before React takes over.
  return waited.then(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))))
}

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
const app = (
  <StrictMode>
    <App router={router} queryClient={queryClient} session={session} />
  </StrictMode>
)

/**
 * A server-rendered page carries the API answers it was rendered from: the route loads from them and
 * hydrates the markup. The app shell (service worker, other routes) has none and renders from scratch, and
 * so does a page rendered from a personal answer (a pack shared by link) for someone signed in: it was
 * rendered for a visitor, and its owner sees more (their private remixes in it, edits still queued here).
 */
function serverAnswers(): ApiAnswers | undefined {
  const text = document.getElementById(SSR_ANSWERS_ELEMENT_ID)?.textContent
  if (!text) return undefined
  const answers = JSON.parse(text) as ApiAnswers
  return holdsPersonalAnswer(answers) && session.getSnapshot().status !== 'signed-out' ? undefined : answers
}

const answers = serverAnswers()
if (answers) {
  primeApiAnswers(answers)
  // Tells the router the markup came from a server render, so it builds the same tree (no outer Suspense).
  router.ssr = { manifest: undefined }
  // Cards far from the screen keep their server HTML until they come near it or someone reaches for them.
  hydrateWhenSeen()
  // As a transition, hydration yields to the browser every few milliseconds instead of one long task.
  // The entry's own evaluation and the route's load are two tasks, not one long one (a slow phone's taps wait for it).
  const loaded = new Promise((resolve) => setTimeout(resolve, 0)).then(() => router.load())
  void Promise.all([loaded, firstImagesPainted()]).then(() => {
    // A tap while React hydrates goes to React (it hydrates the tapped part first), so recording stops here.
    stopRecordingEarlyActions()
    startTransition(() => void hydrateRoot(root, app))
  })
} else {
  stopRecordingEarlyActions()
  createRoot(root).render(app)
}
