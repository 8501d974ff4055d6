import { createFileRoute } from '@tanstack/react-router'
import { PageLoader } from '../components/page-loader'
import { RouteError } from '../components/route-error'
import { wumpusListQueryOptions } from '../features/wumpuses/api'
import { WumpusGallery } from '../features/wumpuses/components/wumpus-gallery'
import { usePageTitle } from '../lib/page-title'
import { useSession } from '../lib/session-provider'

export const Route = createFileRoute('/')({
  loader: ({ context }) => context.queryClient.ensureInfiniteQueryData(wumpusListQueryOptions()),
  pendingComponent: PageLoader,
  errorComponent: RouteError,
  component: HomePage,
})

function HomePage() {
  usePageTitle()
  const { status } = useSession()
  return <WumpusGallery showAboutHint={status === 'signed-out'} />
}
