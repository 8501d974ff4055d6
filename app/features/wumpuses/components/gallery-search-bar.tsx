import { Link } from '@tanstack/react-router'
import { useEffect, useEffectEvent, useLayoutEffect, useRef, useState } from 'react'
import { SEARCH_MAX_LENGTH, queryWords, type ListSort } from '../../../../contract/search'
import { validateGallerySearch, type GallerySearch } from '../gallery-search'
import { takeEarlyAction } from '../../../lib/early-actions'
import { useDebouncedCallback } from '../../../lib/use-debounced-callback'
import classes from './gallery-search-bar.module.css'
import buttonClasses from '../../../components/button.module.css'
import { Spinner } from '../../../components/spinner'
import { StrokeIcon } from '../../../components/stroke-icon'

/** How long typing pauses before the search runs. */
export const SEARCH_DEBOUNCE_MS = 300

/** The search form's id: the fits select, in the row below, belongs to it too (its `form` attribute). */
export const GALLERY_SEARCH_FORM_ID = 'gallery-search'

interface GallerySearchBarProps {
  search: GallerySearch
  /** Replaces the search in the URL; `typing` marks changes made while typing (they replace history). */
  onChange: (next: GallerySearch, typing: boolean) => void
  /** A search is under way (the cards shown are the previous ones). */
  searching: boolean
}

/**
 * The order select's values: '' is the default order (best match with words, else newest), so a form sent
 * without the app leaves the order to the words, and the URL does not name it.
 */
type SortChoice = ListSort | ''

/**
 * The search box (searches as you type, after a pause) and the order of the results. Plain input and
 * select styled like Mantine's: the home page's script budget has no room for its input components.
 * A real GET form: without JavaScript (or before it runs) Enter loads /?q=… rendered by the server.
 */
export function GallerySearchBar({ search, onChange, searching }: GallerySearchBarProps) {
  const [draft, setDraft] = useState(search.q ?? '')
  // What this box last asked for, so a change of the URL from elsewhere (back, a chip, Clear) shows here.
  const asked = useRef(search.q ?? '')
  // Changes only: on mount, what was typed before the app ran may already be asked for (see below).
  const seen = useRef(search.q)
  useEffect(() => {
    if (search.q === seen.current) return
    seen.current = search.q
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

  const formRef = useRef<HTMLFormElement>(null)
  // Typed or chosen in the server-rendered form before the app ran (index.html's script noticed): hydration
  // leaves it in the DOM, but the next render would put the rendered values back. Read first, it is searched for.
  const adoptWhatWasEntered = useEffectEvent(() => {
    const fields = formRef.current?.elements as unknown as
      (Record<'q' | 'sort', { value: string }> & { fits?: { value: string } }) | undefined
    if (!fields || !takeEarlyAction('search')) return
    const entered = validateGallerySearch({ q: fields.q.value, sort: fields.sort.value, fits: fields.fits?.value ?? search.fits })
    setDraft(fields.q.value)
    asked.current = entered.q ?? ''
    onChange({ ...entered, tag: search.tag }, true)
  })
  useLayoutEffect(() => adoptWhatWasEntered(), [])

  const ranked = queryWords(draft).length > 0 || queryWords(search.q).length > 0
  // Newest is the default order without words.
  const sortChoice: SortChoice = search.sort === 'new' && !ranked ? '' : (search.sort ?? '')

  return (
    <form
      ref={formRef}
      id={GALLERY_SEARCH_FORM_ID}
      role="search"
      data-early-action="search"
      method="get"
      action="/"
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
          name="q"
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
              // A link: it works before the app runs too.
              <Link
                to="/"
                search={{ ...search, q: undefined }}
                replace
                resetScroll={false}
                className={buttonClasses.icon}
                data-variant="subtle-gray"
                aria-label="Clear the search box"
                onClick={() => {
                  askLater.cancel()
                  asked.current = ''
                  setDraft('')
                }}
              >
                <ClearIcon />
              </Link>
            )
          )}
        </span>
      </div>
      <select
        className={`${classes.control} ${classes.sort}`}
        name="sort"
        aria-label="Order"
        title="Order: best match, newest first, or most downloaded first"
        value={sortChoice}
        onChange={(event) => onChange({ ...search, sort: (event.currentTarget.value as SortChoice) || undefined }, false)}
      >
        <option value="">{ranked ? 'Best match' : 'Newest'}</option>
        {ranked && <option value="new">Newest</option>}
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
