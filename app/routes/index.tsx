import { createFileRoute } from '@tanstack/react-router'
import { HOME_EMOJI_CHIPS, HOME_TAG_CHIPS } from '../../contract/limits'
import { PLATFORM_LABELS } from '../../contract/platforms'
import { emojiQueryOptions, tagsQueryOptions, wumpusListQueryOptions } from '../entities/wumpus/api'
import { WumpusGallery } from '../features/wumpuses/components/wumpus-gallery'
import { validateGallerySearch, type GallerySearch } from '../features/wumpuses/gallery-search'
import { usePageTitle } from '../lib/page-title'
import { useSession } from '../lib/session-provider'

export const Route = createFileRoute('/')({
  validateSearch: validateGallerySearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps, cause }) => {
    const loading = Promise.all([
      context.queryClient.ensureInfiniteQueryData(wumpusListQueryOptions(deps)),
      // The tag and emoji chips come with the first paint (server-rendered), not a moment later pushing the cards down.
      context.queryClient.ensureQueryData(tagsQueryOptions(HOME_TAG_CHIPS)),
      // The emoji row is an extra: the page shows without it when its list cannot be read.
      context.queryClient.ensureQueryData(emojiQueryOptions(HOME_EMOJI_CHIPS)).catch(() => undefined),
    ])
    // Coming to the page waits for the results; a new search on the page does not (the last results stay
    // shown, and the gallery shows a failure itself).
    if (cause === 'stay') loading.catch(() => {})
    else await loading
  },
  component: HomePage,
})

function HomePage() {
  const search = Route.useSearch()
  const navigate = Route.useNavigate()
  const fits = search.fits && `Fits ${PLATFORM_LABELS[search.fits]}`
  usePageTitle(search.q ? `“${search.q}”` : search.tag ? `#${search.tag}` : fits || undefined)
  const { status } = useSession()
  const onSearchChange = (next: GallerySearch, typing: boolean) => void navigate({ search: next, replace: typing, resetScroll: false })
  return <WumpusGallery search={search} onSearchChange={onSearchChange} showAboutHint={status === 'signed-out'} />
}
