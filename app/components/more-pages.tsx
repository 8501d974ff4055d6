import { Alert, Button, Center, Group, Text } from '@mantine/core'
import type { RefObject } from 'react'

interface MorePagesProps {
  /** The element whose coming into view loads the next page (from useInfiniteScroll). */
  sentinelRef: RefObject<HTMLDivElement | null>
  shown: number
  /** How many there are in all; unknown for lists whose server does not count them. */
  total?: number
  hasNextPage: boolean
  isFetchingNextPage: boolean
  isFetchNextPageError: boolean
  onLoadMore: () => void
  /** What the list holds, as in `Loading more ${noun}…`: 'animations' unless told. */
  noun?: string
}

/** The end of a paged list: what is shown so far, 'Load more' (scrolling also loads), Retry on failure. */
export function MorePages({
  sentinelRef,
  shown,
  total,
  hasNextPage,
  isFetchingNextPage,
  isFetchNextPageError,
  onLoadMore,
  noun = 'animations',
}: MorePagesProps) {
  return (
    <>
      <div ref={sentinelRef} aria-hidden="true" />
      <Text role="status" size="sm" c="dimmed" ta="center">
        {isFetchingNextPage ? `Loading more ${noun}…` : shown > 0 && `Showing ${shown}${total === undefined ? '' : ` of ${total}`}`}
      </Text>
      {isFetchNextPageError ? (
        <Alert color="red" variant="light" title={`Could not load more ${noun}`} maw={640} mx="auto" w="100%">
          <Group justify="space-between">
            <Text size="sm">Check your connection and try again.</Text>
            <Button color="red" onClick={onLoadMore} loading={isFetchingNextPage}>
              Retry
            </Button>
          </Group>
        </Alert>
      ) : (
        hasNextPage && (
          <Center>
            <Button variant="default" onClick={onLoadMore} loading={isFetchingNextPage}>
              Load more
            </Button>
          </Center>
        )
      )}
    </>
  )
}
