import { createFileRoute } from '@tanstack/react-router'
import { PageLoader } from '../../components/page-loader'
import { RouteError } from '../../components/route-error'
import { ManageWumpuses } from '../../features/admin/components/manage-wumpuses'
import { requireAdmin } from '../../features/admin/require-admin'
import { wumpusListQueryOptions } from '../../entities/wumpus/api'

export const Route = createFileRoute('/_authenticated/dashboard/manage')({
  beforeLoad: requireAdmin,
  loader: ({ context }) => context.queryClient.ensureInfiniteQueryData(wumpusListQueryOptions()),
  pendingComponent: PageLoader,
  pendingMs: 100,
  errorComponent: RouteError,
  component: ManageWumpuses,
})
