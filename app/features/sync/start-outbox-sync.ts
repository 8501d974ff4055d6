import type { QueryClient } from '@tanstack/react-query'
import { afterInteractive } from '../../lib/after-interactive'
import type { SessionStore } from '../../lib/session'

/**
 * Keeps the signed-in user's outbox moving (main.tsx calls this once). The outbox code loads only once the
 * page is interactive and someone is signed in; it stops when they sign out and starts again for the next user.
 */
interface Running {
  email: string
  stop?: () => void
  /** Signed out before its code loaded. */
  stopped?: boolean
}

export function startOutboxSync(session: SessionStore, queryClient: QueryClient): void {
  let running: Running | undefined
  const follow = () => {
    const state = session.getSnapshot()
    const email = state.status === 'signed-in' ? state.user.email : null
    if (running?.email === email) return
    if (running) {
      running.stopped = true
      running.stop?.()
      running = undefined
    }
    if (!email) return
    const current: Running = { email }
    running = current
    void import('./outbox-sync').then(
      ({ syncOutbox }) => {
        if (!current.stopped) current.stop = syncOutbox(email, queryClient)
      },
      // Its code could not load (offline before it was kept): the next start tries again.
      () => {},
    )
  }
  void afterInteractive().then(() => {
    follow()
    session.subscribe(follow)
  })
}
