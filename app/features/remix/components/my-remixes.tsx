import { SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useSuspenseInfiniteQuery } from '@tanstack/react-query'
import { AnchorLink } from '../../../components/router-links'
import { MorePages } from '../../../components/more-pages'
import { usePagedList } from '../../../lib/use-paged-list'
import { WumpusCard } from '../../../entities/wumpus/wumpus-card'
import { myRemixesQueryOptions } from '../api'

/** My animation's "My remixes": one's own versions of stickers, newest first. Its route loads the first page. */
export function MyRemixes() {
  const { items, morePages } = usePagedList(useSuspenseInfiniteQuery(myRemixesQueryOptions()))
  return (
    <section aria-labelledby="my-remixes-heading">
      <Title order={2} id="my-remixes-heading" mb="sm">
        My remixes
      </Title>
      {items.length === 0 ? (
        <Text>
          No remixes yet. Open any sticker in <AnchorLink to="/">the gallery</AnchorLink> and choose “Make it yours” to recolour it, caption
          it and get your own files for every chat app.
        </Text>
      ) : (
        <Stack gap="lg">
          <SimpleGrid component="ul" cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" p={0} m={0} aria-label="My remixes">
            {items.map((remix) => (
              <WumpusCard key={remix._id} wumpus={remix} />
            ))}
          </SimpleGrid>
          <MorePages {...morePages} />
        </Stack>
      )}
    </section>
  )
}
