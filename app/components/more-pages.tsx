import { lazy, Suspense, type RefObject } from 'react'
import classes from './more-pages.module.css'
import { PlainButton } from './plain-button'
import { shellPieces } from './shell-pieces'

// Shown only after a page failed to load: not part of the first load of every list.
const MorePagesError = lazy(shellPieces.morePagesError)

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
      <p role="status" className={classes.count}>
        {isFetchingNextPage ? `Loading more ${noun}…` : shown > 0 && `Showing ${shown}${total === undefined ? '' : ` of ${total}`}`}
      </p>
      {isFetchNextPageError ? (
        <Suspense fallback={null}>
          <MorePagesError noun={noun} onRetry={onLoadMore} retrying={isFetchingNextPage} />
        </Suspense>
      ) : (
        hasNextPage && (
          <div className={classes.center}>
            <PlainButton variant="default" onClick={onLoadMore} loading={isFetchingNextPage}>
              Load more
            </PlainButton>
          </div>
        )
      )}
    </>
  )
}
