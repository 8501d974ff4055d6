import { createFileRoute } from '@tanstack/react-router'
import { wumpusListQueryOptions } from '../features/wumpuses/api'
import { WumpusGallery } from '../features/wumpuses/components/wumpus-gallery'
import { usePageTitle } from '../lib/page-title'
import { useSession } from '../lib/session-provider'

export const Route = createFileRoute('/')({
  loader: ({ context }) => context.queryClient.ensureInfiniteQueryData(wumpusListQueryOptions()),
  component: HomePage,
})

function HomePage() {
  usePageTitle()
  const { status } = useSession()
  return <WumpusGallery showAboutHint={status === 'signed-out'} />
}
