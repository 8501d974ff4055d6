import { Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { HOME_TAG_CHIPS } from '../../../../contract/limits'
import { AnchorLink } from '../../../components/router-links'
import { LoadError } from '../../../components/load-error'
import { MorePages } from '../../../components/more-pages'
import { usePagedList } from '../../../lib/use-paged-list'
import { tagsQueryOptions, wumpusListQueryOptions } from '../api'
import type { GallerySearch } from '../gallery-search'
import { GalleryEmpty } from './gallery-empty'
import { GallerySearchBar } from './gallery-search-bar'
import { FitsSelect } from './fits-select'
import fitsClasses from './fits-select.module.css'
import { TagChips } from './tag-chips'
import { WumpusCard } from './wumpus-card'

/**
 * The first card's GIF is the page's largest paint: it loads at once, with priority. The others wait
 * for the browser's lazy loading, which still fetches the first row early on wide screens.
 */
const EAGER_CARDS = 1

interface WumpusGalleryProps {
  search: GallerySearch
  /** Puts a new search in the URL; `typing` marks changes made while typing. */
  onSearchChange: (next: GallerySearch, typing: boolean) => void
  showAboutHint: boolean
}

export function WumpusGallery({ search, onSearchChange, showAboutHint }: WumpusGalleryProps) {
  // Not useSuspenseInfiniteQuery like other pages: a new search keeps the last results on screen until its own arrive
  // (the route loads them in the background).
  const list = useInfiniteQuery({ ...wumpusListQueryOptions(search), placeholderData: keepPreviousData })
  const tags = useQuery(tagsQueryOptions(HOME_TAG_CHIPS))
  const { data } = list
  // While a new search loads, the old results stay on screen but do not page on.
  const { items, total, morePages } = usePagedList(list, { paused: list.isPlaceholderData })
  const offline = data?.pages.some((page) => page.fromOfflineCopy) ?? false

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{total} wumpus animation in 3 format</Title>
        {showAboutHint && (
          <Text>
            Don't know what is wumpus?{' '}
            <AnchorLink to="/about" underline="always">
              Read about the wumpus
            </AnchorLink>
          </Text>
        )}
      </Stack>

      <Stack gap="xs">
        <GallerySearchBar search={search} onChange={onSearchChange} searching={list.isPlaceholderData && list.isFetching} />
        <div className={fitsClasses.row}>
          <FitsSelect search={search} onChange={(next) => onSearchChange(next, false)} />
          <TagChips tags={tags.data ?? []} search={search} label="Tags" />
        </div>
      </Stack>

      {!data ? (
        list.isError ? (
          <LoadError
            title="Could not search the gallery"
            error={list.error}
            onRetry={() => void list.refetch()}
            retrying={list.isFetching}
          />
        ) : (
          <Stack align="center" py="xl">
            <Loader aria-label="Loading animations" />
          </Stack>
        )
      ) : items.length === 0 ? (
        <GalleryEmpty search={search} onChange={(next) => onSearchChange(next, false)} tags={tags.data ?? []} offline={offline} />
      ) : (
        <SimpleGrid
          component="ul"
          cols={{ base: 1, sm: 2, lg: 4 }}
          spacing="sm"
          p={0}
          m={0}
          aria-label="Animations"
          aria-busy={list.isPlaceholderData}
          style={{ opacity: list.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}
        >
          {items.map((wumpus, index) => (
            <WumpusCard key={wumpus._id} wumpus={wumpus} eager={index < EAGER_CARDS} />
          ))}
        </SimpleGrid>
      )}

      {data && offline && Boolean(search.q || search.tag || search.fits || search.sort) && items.length > 0 && (
        <Text size="sm" c="dimmed" ta="center">
          You are offline: these are the matches among the animations stored on this device.
        </Text>
      )}
      <MorePages {...morePages} />
    </Stack>
  )
}
