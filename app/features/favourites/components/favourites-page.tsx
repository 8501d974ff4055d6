import { Group, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useSuspenseInfiniteQuery } from '@tanstack/react-query'
import { MorePages } from '../../../components/more-pages'
import { AnchorLink, ButtonLink } from '../../../components/router-links'
import { usePageTitle } from '../../../lib/page-title'
import { usePagedList } from '../../../lib/use-paged-list'
import { WumpusCard } from '../../../entities/wumpus/wumpus-card'
import { favouriteListQueryOptions } from '../../../entities/favourite/list-query'

/** Cards in the first row load at once; the rest wait until they scroll near. */
const EAGER_CARDS = 3

/** Dashboard → Favourites: the user's favourites, newest first; offline, the ones kept on this device. */
export function FavouritesPage({ email }: { email: string }) {
  usePageTitle('Favourites')
  const query = useSuspenseInfiniteQuery(favouriteListQueryOptions(email))
  const { items, morePages } = usePagedList(query)
  const offline = query.data.pages.some((page) => page.fromOfflineCopy)

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4}>
          <Title order={1}>Favourites</Title>
          <Text>Your favourites follow you to every device you sign in on.</Text>
        </Stack>
        {items.length > 0 && (
          <ButtonLink to="/dashboard/my-packs/new" search={{ from: 'favourites' }} variant="light">
            Make a pack from my favourites
          </ButtonLink>
        )}
      </Group>
      {items.length === 0 ? (
        <Text>
          No favourites yet. Tap the heart on any sticker in the <AnchorLink to="/">gallery</AnchorLink> to keep it here.
        </Text>
      ) : (
        <>
          {offline && (
            <Text size="sm" c="dimmed">
              You are offline: these are the favourites kept on this device.
            </Text>
          )}
          <SimpleGrid component="ul" cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" p={0} m={0} aria-label="Favourites">
            {items.map((wumpus, index) => (
              <WumpusCard key={wumpus._id} wumpus={wumpus} eager={index < EAGER_CARDS} />
            ))}
          </SimpleGrid>
          <MorePages {...morePages} noun="favourites" />
        </>
      )}
    </Stack>
  )
}
