import { createFileRoute } from '@tanstack/react-router'
import { PageLoader } from '../../components/page-loader'
import { AddWumpusPage } from '../../features/admin/components/add-wumpus-page'
import { requireAdmin } from '../../features/admin/require-admin'

export const Route = createFileRoute('/_authenticated/dashboard/addNew')({
  beforeLoad: requireAdmin,
  pendingComponent: PageLoader,
  pendingMs: 100,
  component: AddWumpusPage,
})
