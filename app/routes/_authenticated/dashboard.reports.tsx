import { createFileRoute } from '@tanstack/react-router'
import type { ReportState } from '../../../contract/reports'
import { PageLoader } from '../../components/page-loader'
import { RouteError } from '../../components/route-error'
import { requireAdmin } from '../../features/admin/require-admin'
import { reportGroupsQueryOptions } from '../../features/reports/api'
import { ReportsPage } from '../../features/reports/components/reports-page'

interface ReportsSearch {
  state?: 'decided'
}

export const Route = createFileRoute('/_authenticated/dashboard/reports')({
  validateSearch: (search: Record<string, unknown>): ReportsSearch => (search.state === 'decided' ? { state: 'decided' } : {}),
  beforeLoad: requireAdmin,
  loaderDeps: ({ search }): { state: ReportState } => ({ state: search.state ?? 'open' }),
  loader: ({ context, deps }) => context.queryClient.ensureInfiniteQueryData(reportGroupsQueryOptions(deps.state)),
  pendingComponent: PageLoader,
  pendingMs: 100,
  errorComponent: RouteError,
  component: ReportsRoute,
})

function ReportsRoute() {
  const { state = 'open' } = Route.useSearch()
  const navigate = Route.useNavigate()
  return <ReportsPage state={state} onStateChange={(next) => void navigate({ search: next === 'decided' ? { state: 'decided' } : {} })} />
}
