import type { InfiniteData } from '@tanstack/react-query'
import { useInfiniteScroll } from './use-infinite-scroll'

/** The part of an infinite query result a paged list reads. */
interface PagedQuery<Page extends { items: unknown[]; total?: number }> {
  data: InfiniteData<Page> | undefined
  isError: boolean
  hasNextPage: boolean
  isFetchingNextPage: boolean
  isFetchNextPageError: boolean
  fetchNextPage: () => unknown
}

/**
 * The one way a paged list works (gallery, a user's animations, the admin tables): the next page loads
 * as the end of the list comes near, and MorePages shows the count, a Load more button for keyboard
 * users and Retry. Spread `morePages` into <MorePages>; the route loads the first page (ensureInfiniteQueryData).
 */
export function usePagedList<Page extends { items: unknown[]; total?: number }>(
  query: PagedQuery<Page>,
  { paused = false }: { paused?: boolean } = {},
) {
  const { data, isError, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query
  const sentinelRef = useInfiniteScroll({
    hasNextPage,
    isFetchingNextPage,
    enabled: !paused && !isError && !isFetchNextPageError,
    fetchNextPage,
  })
  const items = (data?.pages.flatMap((page) => page.items) ?? []) as Page['items']
  const counted = data?.pages[0]?.total
  const total = counted ?? items.length
  return {
    items,
    total,
    morePages: {
      sentinelRef,
      shown: items.length,
      total: counted,
      hasNextPage: hasNextPage && !paused,
      isFetchingNextPage,
      isFetchNextPageError,
      onLoadMore: () => void fetchNextPage(),
    },
  }
}
