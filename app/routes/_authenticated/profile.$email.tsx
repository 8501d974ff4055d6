import { createFileRoute, notFound } from '@tanstack/react-router'
import { NotFound } from '../../components/not-found'
import { PageLoader } from '../../components/page-loader'
import { RouteError } from '../../components/route-error'
import { userAnimationsQueryOptions } from '../../entities/wumpus/user-animations'
import { profileQueryOptions } from '../../features/profiles/api'
import { PublicProfile } from '../../features/profiles/components/public-profile'
import { isApiError } from '../../lib/api-client'

export const Route = createFileRoute('/_authenticated/profile/$email')({
  loader: async ({ context, params }) => {
    try {
      await Promise.all([
        context.queryClient.ensureQueryData(profileQueryOptions(params.email)),
        context.queryClient.ensureInfiniteQueryData(userAnimationsQueryOptions(params.email)),
      ])
    } catch (error) {
      if (isApiError(error, 404)) throw notFound()
      throw error
    }
  },
  pendingComponent: PageLoader,
  errorComponent: RouteError,
  notFoundComponent: ProfileNotFound,
  component: PublicProfileRoute,
})

function PublicProfileRoute() {
  const { email } = Route.useParams()
  return <PublicProfile email={email} />
}

function ProfileNotFound() {
  return (
    <NotFound
      title="Profile not found"
      message="No one in this cave goes by that address. The link may be mistyped, or the account is gone."
    />
  )
}
