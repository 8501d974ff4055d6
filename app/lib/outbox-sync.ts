import type { QueryClient } from '@tanstack/react-query'
import { supersededMessage, supersedesFields } from '../../contract/pack-edits'
import type { SessionStore } from './session'
import { showToast } from './toast'
import { onOutboxEvent, sendQueuedWrites } from './local-data/outbox'
import { queriesChangedBy } from './synced-queries'

/**
 * Sends the user's queued writes now, when the connection returns and when the tab comes back into view
 * (another tab or a closed laptop may have kept them waiting). A write that reached the server, or that it
 * refused, refreshes the queries it changes; a refused one is named in a toast with the server's reason, and
 * one whose fields another device edited later says which kept the newer value.
 * Answers the function that stops it.
 */
export function syncOutbox(email: string, queryClient: QueryClient): () => void {
  const send = () => void sendQueuedWrites(email)
  const sendWhenVisible = () => {
    if (document.visibilityState === 'visible') send()
  }
  const stopListening = onOutboxEvent((event) => {
    if (event.email !== email || event.type === 'changed') return
    for (const queryKey of queriesChangedBy(email, event.write.key)) void queryClient.invalidateQueries({ queryKey })
    if (event.type === 'refused') {
      showToast({ color: 'red', title: `Not saved: ${event.write.label}`, message: event.error.message, autoClose: 6000 })
    } else if (supersedesFields(event.body)) {
      showToast({ color: 'yellow', message: supersededMessage(event.body) })
    }
  })
  window.addEventListener('online', send)
  document.addEventListener('visibilitychange', sendWhenVisible)
  send()
  return () => {
    stopListening()
    window.removeEventListener('online', send)
    document.removeEventListener('visibilitychange', sendWhenVisible)
  }
}

let following = false

/** Syncs the outbox of whoever is signed in: stops at sign-out, starts again for the next user. Once per page. */
export function followSignedInUser(session: SessionStore, queryClient: QueryClient): void {
  if (following) return
  following = true
  let running: { email: string; stop: () => void } | undefined
  const follow = () => {
    const state = session.getSnapshot()
    const email = state.status === 'signed-in' ? state.user.email : undefined
    if (running?.email === email) return
    running?.stop()
    running = email ? { email, stop: syncOutbox(email, queryClient) } : undefined
  }
  session.subscribe(follow)
  follow()
}
