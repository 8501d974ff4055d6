import { createFileRoute, redirect } from '@tanstack/react-router'
import { PageLoader } from '../components/page-loader'
import type { Session } from '../lib/session'

// Protected pages: signed out, go to /signIn?from=<this location>. A search parameter (not history
// state) so the way back survives a reload of the sign-in page and the trip through sign-up.
export const Route = createFileRoute('/_authenticated')({
  beforeLoad: ({ context, location }) => {
    const check = (session: Session) => {
      if (session.status !== 'signed-in') throw redirect({ to: '/signIn', search: { from: location.href } })
      return { user: session.user }
    }
    const session = context.session.getSnapshot()
    // Only an expired token being renewed makes this wait (and shows the spinner).
    return session.status === 'loading' ? context.session.ready().then(check) : check(session)
  },
  pendingComponent: PageLoader,
  pendingMs: 100,
})
