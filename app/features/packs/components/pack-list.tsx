import { SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useSuspenseInfiniteQuery } from '@tanstack/react-query'
import { MorePages } from '../../../components/more-pages'
import { usePageTitle } from '../../../lib/page-title'
import { usePagedList } from '../../../lib/use-paged-list'
import { packListQueryOptions } from '../api'
import { PackCard } from './pack-card'

/** /packs: every pack, newest first, as cards. */
export function PackList() {
  usePageTitle('Sticker packs')
  const query = useSuspenseInfiniteQuery(packListQueryOptions())
  const { items: packs, morePages } = usePagedList(query)
  const offline = query.data.pages.some((page) => page.fromOfflineCopy)
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>Sticker packs</Title>
        <Text>Sets of wumpuses ready for your chat app: one download per app, every sticker in it.</Text>
      </Stack>
      {offline && (
        <Text size="sm" c="dimmed" role="status">
          {packs.length === 0
            ? 'You are offline, and no pack is saved on this device yet. Save a pack for offline from its page, and it opens here without a connection.'
            : 'You are offline: packs saved for offline open without a connection; the others need the network.'}
        </Text>
      )}
      {packs.length === 0 ? (
        !offline && <Text c="dimmed">No packs yet. Admins make them from the gallery.</Text>
      ) : (
        <SimpleGrid component="ul" cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm" p={0} m={0} aria-label="Packs">
          {packs.map((pack, index) => (
            <PackCard key={pack.id} pack={pack} eager={index === 0} />
          ))}
        </SimpleGrid>
      )}
      <MorePages {...morePages} noun="packs" />
    </Stack>
  )
}
