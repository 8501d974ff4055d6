import { createFileRoute } from '@tanstack/react-router'
import { PageLoader } from '../components/page-loader'
import { RouteError } from '../components/route-error'
import { wumpusListQueryOptions } from '../features/wumpuses/api'
import { WumpusGallery } from '../features/wumpuses/components/wumpus-gallery'
import { usePageTitle } from '../lib/page-title'

export const Route = createFileRoute('/')({
  loader: ({ context }) => context.queryClient.ensureInfiniteQueryData(wumpusListQueryOptions()),
  pendingComponent: PageLoader,
  errorComponent: RouteError,
  component: HomePage,
})

function HomePage() {
  usePageTitle()
  // Everyone is signed out until sign-in lands; then this follows the session.
  return <WumpusGallery showAboutHint />
}
