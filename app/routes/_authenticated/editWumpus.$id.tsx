import { createFileRoute } from '@tanstack/react-router'
import { PageLoader } from '../../components/page-loader'
import { RouteError } from '../../components/route-error'
import { adminQueryOptions, useIsAdmin } from '../../lib/admin-role'
import { EditWumpusPage } from '../../features/admin/components/edit-wumpus-page'
import { wumpusQueryOptions } from '../../entities/wumpus/api'
import { loadById } from '../../lib/load-by-id'
import { AnimationNotFound } from '../../entities/wumpus/animation-not-found'

export const Route = createFileRoute('/_authenticated/editWumpus/$id')({
  loader: ({ context, params }) =>
    loadById(params.id, () =>
      Promise.all([
        context.queryClient.ensureQueryData(wumpusQueryOptions(params.id)),
        // Without an answer the page treats the user as not an admin (the uploader may still edit).
        context.queryClient.prefetchQuery(adminQueryOptions(context.user.email)),
      ]),
    ),
  pendingComponent: PageLoader,
  errorComponent: RouteError,
  notFoundComponent: () => (
    <AnimationNotFound message="We looked in every room of the cave and found no animation with this id, so there is nothing to edit." />
  ),
  component: EditWumpusRoute,
})

function EditWumpusRoute() {
  const { id } = Route.useParams()
  const { user } = Route.useRouteContext()
  const { isAdmin, isPending } = useIsAdmin()
  if (isPending) return <PageLoader />
  return <EditWumpusPage id={id} email={user.email} isAdmin={isAdmin} />
}
