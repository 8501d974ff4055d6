import { createFileRoute } from '@tanstack/react-router'
import { PageLoader } from '../../components/page-loader'
import { RouteError } from '../../components/route-error'
import { ActivityLog } from '../../features/admin/components/activity-log'
import { requireAdmin } from '../../features/admin/require-admin'

export const Route = createFileRoute('/_authenticated/dashboard/activity')({
  beforeLoad: requireAdmin,
  // The admin api stays out of the entry chunk: it is fetched with the page.
  loader: ({ context }) =>
    import('../../features/admin/api').then(({ activityQueryOptions }) =>
      context.queryClient.ensureInfiniteQueryData(activityQueryOptions()),
    ),
  pendingComponent: PageLoader,
  pendingMs: 100,
  errorComponent: RouteError,
  component: ActivityLog,
})
