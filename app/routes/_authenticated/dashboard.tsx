import { createFileRoute, Outlet } from '@tanstack/react-router'
import { adminQueryOptions, useIsAdmin } from '../../lib/admin-role'
import { DashboardLayout } from '../../features/dashboard/components/dashboard-layout'

export const Route = createFileRoute('/_authenticated/dashboard')({
  // Never throws: without an answer the sidebar simply shows no admin links.
  loader: ({ context }) => context.queryClient.prefetchQuery(adminQueryOptions(context.user.email)),
  component: DashboardRoute,
})

function DashboardRoute() {
  const { isAdmin } = useIsAdmin()
  return (
    <DashboardLayout isAdmin={isAdmin}>
      <Outlet />
    </DashboardLayout>
  )
}
