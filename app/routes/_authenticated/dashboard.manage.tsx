import { createFileRoute } from '@tanstack/react-router'
import { PageLoader } from '../../components/page-loader'
import { ManageWumpuses } from '../../features/admin/components/manage-wumpuses'
import { requireAdmin } from '../../features/admin/require-admin'
import { wumpusListQueryOptions } from '../../features/wumpuses/api'

export const Route = createFileRoute('/_authenticated/dashboard/manage')({
  beforeLoad: requireAdmin,
  // Prefetch only: the page shows loading and errors itself.
  loader: ({ context }) => context.queryClient.prefetchInfiniteQuery(wumpusListQueryOptions()),
  pendingComponent: PageLoader,
  pendingMs: 100,
  component: ManageWumpuses,
})
