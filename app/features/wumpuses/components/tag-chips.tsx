import { Link } from '@tanstack/react-router'
import type { TagCount } from '../../../../contract/wumpus'
import buttonClasses from '../../../components/button.module.css'
import type { GallerySearch } from '../gallery-search'
import classes from './tag-chips.module.css'

interface TagChipsProps {
  tags: TagCount[]
  search: GallerySearch
  /** What the row is, for screen readers. */
  label: string
  /** Show how many animations carry each tag. */
  counts?: boolean
}

/** Tags as links that filter the gallery (the chosen one again clears it), keeping the rest of the search. */
export function TagChips({ tags, search, label, counts = true }: TagChipsProps) {
  const shown = search.tag && !tags.some((entry) => entry.tag === search.tag) ? [{ tag: search.tag, count: 0 }, ...tags] : tags
  if (shown.length === 0) return null
  return (
    <ul className={classes.row} aria-label={label}>
      {shown.map(({ tag, count }) => {
        const active = tag === search.tag
        return (
          <li key={tag} className={classes.item}>
            <Link
              to="/"
              search={{ ...search, tag: active ? undefined : tag }}
              className={buttonClasses.button}
              data-size="compact-sm"
              data-radius="xl"
              data-variant={active ? 'filled' : 'light'}
              data-chosen={active || undefined}
              // The name holds the visible words ('#night 2'), so people who speak it to voice control are understood.
              aria-label={active ? `#${tag}, chosen: show every tag` : undefined}
            >
              #{tag}
              {counts && count > 0 && !active && (
                <>
                  {' '}
                  <span className={classes.count}>{count}</span>{' '}
                  <span className="visually-hidden">{count === 1 ? 'animation' : 'animations'}</span>
                </>
              )}
              {active && (
                <>
                  {' '}
                  <span aria-hidden="true" className={classes.count}>
                    ✕
                  </span>
                </>
              )}
            </Link>
          </li>
        )
      })}
    </ul>
  )
}
