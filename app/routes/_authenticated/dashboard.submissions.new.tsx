import { createFileRoute } from '@tanstack/react-router'
import { SubmitStickerPage } from '../../features/submissions/components/submission-pages'

export const Route = createFileRoute('/_authenticated/dashboard/submissions/new')({
  component: SubmitStickerRoute,
})

function SubmitStickerRoute() {
  const { user } = Route.useRouteContext()
  const navigate = Route.useNavigate()
  return <SubmitStickerPage user={user} onSent={() => void navigate({ to: '/dashboard/submissions' })} />
}
