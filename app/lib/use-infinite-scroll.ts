import { useEffect, useEffectEvent, useRef } from 'react'

interface InfiniteScrollOptions {
  hasNextPage: boolean
  isFetchingNextPage: boolean
  /** Pause while e.g. the last page failed, so a broken server is not hammered. */
  enabled?: boolean
  fetchNextPage: () => unknown
  /** How far ahead of the viewport the sentinel starts the next fetch. */
  rootMargin?: string
}

/**
 * Calls fetchNextPage when the returned sentinel element comes near the viewport.
 * A fresh observer after every fetch reports the sentinel's current position, so a page that
 * leaves the sentinel in view loads the next one, and a stale "visible" never triggers twice.
 */
export function useInfiniteScroll<T extends Element = HTMLDivElement>({
  hasNextPage,
  isFetchingNextPage,
  enabled = true,
  fetchNextPage,
  rootMargin = '800px 0px',
}: InfiniteScrollOptions) {
  const sentinelRef = useRef<T>(null)
  const onVisible = useEffectEvent(() => {
    fetchNextPage()
  })

  useEffect(() => {
    const sentinel = sentinelRef.current
    if (!sentinel || !enabled || !hasNextPage || isFetchingNextPage) return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.disconnect()
          onVisible()
        }
      },
      { rootMargin },
    )
    observer.observe(sentinel)
    return () => observer.disconnect()
  }, [enabled, hasNextPage, isFetchingNextPage, rootMargin])

  return sentinelRef
}
