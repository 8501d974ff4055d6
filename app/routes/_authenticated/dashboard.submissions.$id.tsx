import { useSuspenseInfiniteQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { SUBMISSION_EDITABLE_STATES } from '../../../contract/submission-states'
import { NotFound } from '../../components/not-found'
import { mySubmissionsQueryOptions } from '../../features/submissions/api'
import { EditSubmissionPage } from '../../features/submissions/components/submission-pages'

// One's own submissions are few (a handful wait at a time): the one edited is found in one's list.
export const Route = createFileRoute('/_authenticated/dashboard/submissions/$id')({
  loader: ({ context }) => context.queryClient.ensureInfiniteQueryData(mySubmissionsQueryOptions()),
  component: EditSubmissionRoute,
})

function EditSubmissionRoute() {
  const { id } = Route.useParams()
  const { user } = Route.useRouteContext()
  const navigate = Route.useNavigate()
  const { data } = useSuspenseInfiniteQuery(mySubmissionsQueryOptions())
  const submission = data.pages.flatMap((page) => page.items).find((item) => item.id === id)
  if (!submission || !SUBMISSION_EDITABLE_STATES.includes(submission.state))
    return (
      <NotFound
        title="Nothing to edit"
        message="You have no submission with this id waiting for review. It may have been withdrawn or decided."
      />
    )
  return (
    <EditSubmissionPage
      key={submission.id}
      user={user}
      submission={submission}
      onSent={() => void navigate({ to: '/dashboard/submissions' })}
    />
  )
}
