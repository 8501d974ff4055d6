import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { lazy, Suspense } from 'react'
import { HOME_EMOJI_CHIPS, HOME_TAG_CHIPS } from '../../../../contract/limits'
import { MorePages } from '../../../components/more-pages'
import { Spinner } from '../../../components/spinner'
import { usePagedList } from '../../../lib/use-paged-list'
import { emojiQueryOptions, tagsQueryOptions, wumpusListQueryOptions } from '../../../entities/wumpus/api'
import type { GallerySearch } from '../gallery-search'
import { GalleryEmpty } from './gallery-empty'
import { GALLERY_SEARCH_FORM_ID, GallerySearchBar } from './gallery-search-bar'
import { FitsSelect } from './fits-select'
import fitsClasses from './fits-select.module.css'
import { EmojiChips, TagChips } from './tag-chips'
import { WumpusCard } from '../../../entities/wumpus/wumpus-card'
import classes from './wumpus-gallery.module.css'
import { shellPieces } from '../../../components/shell-pieces'

// Shown only after a failed search: not part of the home page's first load.
const LoadError = lazy(() => shellPieces.loadError().then((m) => ({ default: m.LoadError })))

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
  const emoji = useQuery(emojiQueryOptions(HOME_EMOJI_CHIPS))
  const { data } = list
  // While a new search loads, the old results stay on screen but do not page on.
  const { items, total, morePages } = usePagedList(list, { paused: list.isPlaceholderData })
  const offline = data?.pages.some((page) => page.fromOfflineCopy) ?? false

  return (
    <div className={classes.stack} data-gap="lg">
      <div className={classes.stack} data-gap="4">
        <h1 className="title-h1">{total} wumpus animation in 3 format</h1>
        {showAboutHint && (
          <p className={classes.text}>
            Don't know what is wumpus?{' '}
            <Link to="/about" className={classes.anchor}>
              Read about the wumpus
            </Link>
          </p>
        )}
      </div>

      <div className={classes.stack} data-gap="xs">
        <GallerySearchBar search={search} onChange={onSearchChange} searching={list.isPlaceholderData && list.isFetching} />
        <div className={fitsClasses.row}>
          <FitsSelect search={search} onChange={(next) => onSearchChange(next, false)} form={GALLERY_SEARCH_FORM_ID} />
          <TagChips tags={tags.data ?? []} search={search} label="Tags" />
        </div>
        <EmojiChips emoji={emoji.data ?? []} search={search} label="Emoji" />
      </div>

      {!data ? (
        list.isError ? (
          <Suspense fallback={null}>
            <LoadError
              title="Could not search the gallery"
              error={list.error}
              onRetry={() => void list.refetch()}
              retrying={list.isFetching}
            />
          </Suspense>
        ) : (
          <div className={classes.loading}>
            <Spinner label="Loading animations" />
          </div>
        )
      ) : items.length === 0 ? (
        <GalleryEmpty search={search} tags={tags.data ?? []} emoji={emoji.data ?? []} offline={offline} />
      ) : (
        <ul
          className={classes.grid}
          aria-label="Animations"
          aria-busy={list.isPlaceholderData}
          style={{ opacity: list.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}
        >
          {items.map((wumpus, index) => (
            <WumpusCard key={wumpus._id} wumpus={wumpus} eager={index < EAGER_CARDS} />
          ))}
        </ul>
      )}

      {data && offline && Boolean(search.q || search.tag || search.fits || search.sort) && items.length > 0 && (
        <p className={classes.offlineNote}>You are offline: these are the matches among the animations stored on this device.</p>
      )}
      <MorePages {...morePages} />
    </div>
  )
}
