import { createFileRoute } from '@tanstack/react-router'
import { PageLoader } from '../../components/page-loader'
import { RouteError } from '../../components/route-error'
import { BackupsPage } from '../../features/admin/components/backups-page'
import { requireAdmin } from '../../features/admin/require-admin'

export const Route = createFileRoute('/_authenticated/dashboard/backups')({
  beforeLoad: requireAdmin,
  // The admin api stays out of the entry chunk: it is fetched with the page.
  loader: ({ context }) =>
    import('../../features/admin/api').then(({ backupsQueryOptions }) => context.queryClient.ensureQueryData(backupsQueryOptions())),
  pendingComponent: PageLoader,
  pendingMs: 100,
  errorComponent: RouteError,
  component: BackupsPage,
})
