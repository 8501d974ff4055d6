import { Group, VisuallyHidden } from '@mantine/core'
import type { TagCount } from '../../../../contract/wumpus'
import { ButtonLink } from '../../../components/router-links'
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
    <Group component="ul" gap={6} wrap="nowrap" className={classes.row} aria-label={label} p={0} m={0}>
      {shown.map(({ tag, count }) => {
        const active = tag === search.tag
        return (
          <li key={tag} className={classes.item}>
            <ButtonLink
              to="/"
              search={{ ...search, tag: active ? undefined : tag }}
              size="compact-sm"
              radius="xl"
              variant={active ? 'filled' : 'light'}
              data-chosen={active || undefined}
              // The name holds the visible words ('#night 2'), so people who speak it to voice control are understood.
              aria-label={active ? `#${tag}, chosen: show every tag` : undefined}
            >
              #{tag}
              {counts && count > 0 && !active && (
                <>
                  {' '}
                  <span className={classes.count}>{count}</span>{' '}
                  <VisuallyHidden component="span">{count === 1 ? 'animation' : 'animations'}</VisuallyHidden>
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
            </ButtonLink>
          </li>
        )
      })}
    </Group>
  )
}
