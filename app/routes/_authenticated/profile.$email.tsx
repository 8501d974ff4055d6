import { createFileRoute } from '@tanstack/react-router'
import { PublicProfile } from '../../features/profiles/components/public-profile'
import { profileQueryOptions, userAnimationsQueryOptions } from '../../features/profiles/api'

export const Route = createFileRoute('/_authenticated/profile/$email')({
  // Prefetch only: the page itself shows loading, not-found and errors.
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.prefetchQuery(profileQueryOptions(params.email)),
      context.queryClient.prefetchInfiniteQuery(userAnimationsQueryOptions(params.email)),
    ]),
  component: PublicProfileRoute,
})

function PublicProfileRoute() {
  const { email } = Route.useParams()
  return <PublicProfile email={email} />
}
