import { createFileRoute } from '@tanstack/react-router'
import { PageLoader } from '../components/page-loader'
import { RouteError } from '../components/route-error'
import { packListQueryOptions } from '../features/packs/api'
import { PackList } from '../features/packs/components/pack-list'

export const Route = createFileRoute('/packs/')({
  loader: ({ context }) => context.queryClient.ensureInfiniteQueryData(packListQueryOptions()),
  pendingComponent: PageLoader,
  errorComponent: RouteError,
  component: PackList,
})
