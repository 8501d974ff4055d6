import { createFileRoute } from '@tanstack/react-router'
import { PageLoader } from '../../components/page-loader'
import { RouteError } from '../../components/route-error'
import { requireAdmin } from '../../features/admin/require-admin'
import { packListQueryOptions } from '../../features/packs/api'
import { ManagePacks } from '../../features/packs/components/manage-packs'

export const Route = createFileRoute('/_authenticated/dashboard/packs/')({
  beforeLoad: requireAdmin,
  loader: ({ context }) => context.queryClient.ensureInfiniteQueryData(packListQueryOptions()),
  pendingComponent: PageLoader,
  errorComponent: RouteError,
  component: ManagePacks,
})
