import { createFileRoute } from '@tanstack/react-router'
import { notificationsQueryOptions } from '../../features/notifications/api'
import { NotificationsPage } from '../../features/notifications/components/notifications-page'

export const Route = createFileRoute('/_authenticated/dashboard/notifications')({
  loader: ({ context }) => context.queryClient.ensureQueryData(notificationsQueryOptions(context.user.email)),
  component: Notifications,
})

function Notifications() {
  const { user } = Route.useRouteContext()
  return <NotificationsPage email={user.email} />
}
