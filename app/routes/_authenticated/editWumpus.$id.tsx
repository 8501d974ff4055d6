import { createFileRoute, notFound } from '@tanstack/react-router'
import { ID_PATTERN } from '../../../contract/limits'
import { NotFound } from '../../components/not-found'
import { PageLoader } from '../../components/page-loader'
import { RouteError } from '../../components/route-error'
import { adminQueryOptions, useIsAdmin } from '../../features/auth/api'
import { EditWumpusPage } from '../../features/admin/components/edit-wumpus-page'
import { wumpusQueryOptions } from '../../features/wumpuses/api'
import { isApiError } from '../../lib/api-client'

export const Route = createFileRoute('/_authenticated/editWumpus/$id')({
  loader: async ({ context, params }) => {
    if (!ID_PATTERN.test(params.id)) throw notFound()
    try {
      await Promise.all([
        context.queryClient.ensureQueryData(wumpusQueryOptions(params.id)),
        // Without an answer the page treats the user as not an admin (the uploader may still edit).
        context.queryClient.prefetchQuery(adminQueryOptions(context.user.email)),
      ])
    } catch (error) {
      if (isApiError(error, 404)) throw notFound()
      throw error
    }
  },
  pendingComponent: PageLoader,
  errorComponent: RouteError,
  notFoundComponent: WumpusNotFound,
  component: EditWumpusRoute,
})

function EditWumpusRoute() {
  const { id } = Route.useParams()
  const { user } = Route.useRouteContext()
  const { isAdmin, isPending } = useIsAdmin()
  if (isPending) return <PageLoader />
  return <EditWumpusPage id={id} email={user.email} isAdmin={isAdmin} />
}

function WumpusNotFound() {
  return (
    <NotFound
      title="Wumpus not found"
      message="We looked in every room of the cave and found no animation with this id, so there is nothing to edit."
    />
  )
}
