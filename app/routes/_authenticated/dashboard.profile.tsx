import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { PageLoader } from '../../components/page-loader'
import { RouteError } from '../../components/route-error'
import { MyProfile } from '../../features/profiles/components/my-profile'
import { SignOutEverywhere } from '../../features/profiles/components/sign-out-everywhere'
import { TelegramLink } from '../../features/profiles/components/telegram-link'
import { profileQueryOptions } from '../../features/profiles/api'
import { useSessionStore } from '../../lib/session-provider'

export const Route = createFileRoute('/_authenticated/dashboard/profile')({
  loader: ({ context }) => context.queryClient.ensureQueryData(profileQueryOptions(context.user.email)),
  pendingComponent: PageLoader,
  errorComponent: RouteError,
  component: MyProfileRoute,
})

function MyProfileRoute() {
  const { user } = Route.useRouteContext()
  const session = useSessionStore()
  const navigate = useNavigate()
  const signedOutEverywhere = async () => {
    // Leave the protected page first, as Sign Out does, so signing out does not bounce to the sign-in screen.
    await navigate({ to: '/' })
    // The usual sign-out (personal data forgotten); the server already ended this session with the others.
    await session.signOut({ endedOnServer: true })
  }
  return (
    <MyProfile
      email={user.email}
      emailVerified={user.emailVerified}
      onTokenRenewed={session.setToken}
      aside={
        <>
          <SignOutEverywhere emailVerified={user.emailVerified} onSignedOut={signedOutEverywhere} />
          <TelegramLink />
        </>
      }
    />
  )
}
