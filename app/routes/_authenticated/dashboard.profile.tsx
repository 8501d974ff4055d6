import { createFileRoute } from '@tanstack/react-router'
import { PageLoader } from '../../components/page-loader'
import { RouteError } from '../../components/route-error'
import { MyProfile } from '../../features/profiles/components/my-profile'
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
  return <MyProfile email={user.email} emailVerified={user.emailVerified} onTokenRenewed={session.setToken} />
}
