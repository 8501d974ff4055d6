import { createFileRoute } from '@tanstack/react-router'
import { SUBMISSION_STATES, type SubmissionState } from '../../../contract/submission-states'
import { PageLoader } from '../../components/page-loader'
import { RouteError } from '../../components/route-error'
import { requireAdmin } from '../../features/admin/require-admin'
import { submissionQueueQueryOptions } from '../../features/submissions/api'
import { ReviewQueue } from '../../features/submissions/components/review-queue'

interface ReviewSearch {
  state?: SubmissionState
}

export const Route = createFileRoute('/_authenticated/dashboard/review')({
  validateSearch: (search: Record<string, unknown>): ReviewSearch =>
    SUBMISSION_STATES.includes(search.state as SubmissionState) && search.state !== 'waiting'
      ? { state: search.state as SubmissionState }
      : {},
  beforeLoad: requireAdmin,
  loaderDeps: ({ search }) => ({ state: search.state ?? 'waiting' }),
  loader: ({ context, deps }) => context.queryClient.ensureInfiniteQueryData(submissionQueueQueryOptions(deps.state)),
  pendingComponent: PageLoader,
  pendingMs: 100,
  errorComponent: RouteError,
  component: ReviewRoute,
})

function ReviewRoute() {
  const { state = 'waiting' } = Route.useSearch()
  const navigate = Route.useNavigate()
  return <ReviewQueue state={state} onStateChange={(next) => void navigate({ search: next === 'waiting' ? {} : { state: next } })} />
}
