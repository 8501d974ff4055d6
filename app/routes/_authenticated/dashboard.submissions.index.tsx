import { createFileRoute } from '@tanstack/react-router'
import { mySubmissionsQueryOptions } from '../../features/submissions/api'
import { MySubmissions } from '../../features/submissions/components/my-submissions'

export const Route = createFileRoute('/_authenticated/dashboard/submissions/')({
  loader: ({ context }) => context.queryClient.ensureInfiniteQueryData(mySubmissionsQueryOptions()),
  component: MySubmissionsRoute,
})

function MySubmissionsRoute() {
  const { user } = Route.useRouteContext()
  return <MySubmissions emailVerified={user.emailVerified} />
}
