import { SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useSuspenseInfiniteQuery } from '@tanstack/react-query'
import { AnchorLink } from '../../../components/router-links'
import { MorePages } from '../../../components/more-pages'
import { useInfiniteScroll } from '../../../lib/use-infinite-scroll'
import { wumpusListQueryOptions } from '../api'
import { WumpusCard } from './wumpus-card'

/**
 * The first card's GIF is the page's largest paint: it loads at once, with priority. The others wait
 * for the browser's lazy loading, which still fetches the first row early on wide screens.
 */
const EAGER_CARDS = 1

export function WumpusGallery({ showAboutHint }: { showAboutHint: boolean }) {
  const { data, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } =
    useSuspenseInfiniteQuery(wumpusListQueryOptions())
  const sentinelRef = useInfiniteScroll({
    hasNextPage,
    isFetchingNextPage,
    enabled: !isFetchNextPageError,
    fetchNextPage,
  })

  const items = data.pages.flatMap((page) => page.items)
  const total = data.pages[0]?.total ?? items.length
  const loadMore = () => void fetchNextPage()

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{total} wumpus animation in 3 format</Title>
        {showAboutHint && (
          <Text>
            Don't know what is wumpus? <AnchorLink to="/about" underline="always">Read about the wumpus</AnchorLink>
          </Text>
        )}
      </Stack>

      {items.length === 0 ? (
        <Text>No animations yet. Come back soon!</Text>
      ) : (
        <SimpleGrid component="ul" cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm" p={0} m={0} aria-label="Animations">
          {items.map((wumpus, index) => (
            <WumpusCard key={wumpus._id} wumpus={wumpus} eager={index < EAGER_CARDS} />
          ))}
        </SimpleGrid>
      )}

      <MorePages
        sentinelRef={sentinelRef}
        shown={items.length}
        total={total}
        hasNextPage={hasNextPage}
        isFetchingNextPage={isFetchingNextPage}
        isFetchNextPageError={isFetchNextPageError}
        onLoadMore={loadMore}
      />
    </Stack>
  )
}
