import { useDebouncedCallback } from '@mantine/hooks'
import { useEffect, useRef, useState } from 'react'
import { SEARCH_MAX_LENGTH, queryWords, type ListSort } from '../../../../contract/search'
import type { GallerySearch } from '../gallery-search'
import classes from './gallery-search-bar.module.css'
import { PlainButton } from '../../../components/plain-button'
import { Spinner } from '../../../components/spinner'
import { StrokeIcon } from '../../../components/stroke-icon'

/** How long typing pauses before the search runs. */
export const SEARCH_DEBOUNCE_MS = 300

interface GallerySearchBarProps {
  search: GallerySearch
  /** Replaces the search in the URL; `typing` marks changes made while typing (they replace history). */
  onChange: (next: GallerySearch, typing: boolean) => void
  /** A search is under way (the cards shown are the previous ones). */
  searching: boolean
}

type SortChoice = ListSort | 'relevance'

/**
 * The search box (searches as you type, after a pause) and the order of the results. Plain input and
 * select styled like Mantine's: the home page's script budget has no room for its input components.
 */
export function GallerySearchBar({ search, onChange, searching }: GallerySearchBarProps) {
  const [draft, setDraft] = useState(search.q ?? '')
  // What this box last asked for, so a change of the URL from elsewhere (back, a chip, Clear) shows here.
  const asked = useRef(search.q ?? '')
  useEffect(() => {
    if ((search.q ?? '') !== asked.current) {
      asked.current = search.q ?? ''
      setDraft(search.q ?? '')
    }
  }, [search.q])

  const ask = (text: string) => {
    const q = text.trim()
    if (q === (search.q ?? '')) return
    asked.current = q
    onChange({ ...search, q: q || undefined }, true)
  }
  const askLater = useDebouncedCallback(ask, SEARCH_DEBOUNCE_MS)

  const hasWords = queryWords(draft).length > 0
  const sort: SortChoice = search.sort ?? (queryWords(search.q).length > 0 ? 'relevance' : 'new')

  return (
    <form
      role="search"
      className={classes.bar}
      onSubmit={(event) => {
        event.preventDefault()
        askLater.cancel()
        ask(draft)
      }}
    >
      <div className={classes.field}>
        <SearchIcon />
        <input
          className={classes.control}
          type="search"
          aria-label="Search animations"
          placeholder="Search: happy, dance…"
          value={draft}
          maxLength={SEARCH_MAX_LENGTH}
          enterKeyHint="search"
          autoComplete="off"
          onChange={(event) => {
            setDraft(event.currentTarget.value)
            askLater(event.currentTarget.value)
          }}
        />
        <span className={classes.end}>
          {searching ? (
            <Spinner size="xs" label="Searching" />
          ) : (
            draft && (
              <PlainButton
                shape="icon"
                variant="subtle-gray"
                aria-label="Clear the search box"
                onClick={() => {
                  askLater.cancel()
                  setDraft('')
                  ask('')
                }}
              >
                <ClearIcon />
              </PlainButton>
            )
          )}
        </span>
      </div>
      <select
        className={`${classes.control} ${classes.sort}`}
        aria-label="Order"
        title="Order: best match, newest first, or most downloaded first"
        value={sort}
        onChange={(event) => {
          const chosen = event.currentTarget.value as SortChoice
          // The default order of the list stays out of the URL.
          const next = chosen === 'relevance' || (chosen === 'new' && queryWords(search.q).length === 0) ? undefined : chosen
          onChange({ ...search, sort: next }, false)
        }}
      >
        {(hasWords || sort === 'relevance') && <option value="relevance">Best match</option>}
        <option value="new">Newest</option>
        <option value="popular">Popular</option>
      </select>
    </form>
  )
}

function ClearIcon() {
  return (
    <StrokeIcon size={14} strokeWidth={2.5}>
      <path d="M6 6l12 12M18 6 6 18" />
    </StrokeIcon>
  )
}

function SearchIcon() {
  return (
    <StrokeIcon className={classes.icon}>
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </StrokeIcon>
  )
}
