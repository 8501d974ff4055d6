import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { emojiKey } from '../../../../contract/search'
import type { EmojiCount, TagCount } from '../../../../contract/wumpus'
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
    <ChipRow label={label}>
      {shown.map(({ tag, count }) => {
        const active = tag === search.tag
        return (
          <Chip
            key={tag}
            search={{ ...search, tag: active ? undefined : tag }}
            active={active}
            chosenLabel={`#${tag}, chosen: show every tag`}
            count={counts ? count : 0}
          >
            #{tag}
          </Chip>
        )
      })}
    </ChipRow>
  )
}

interface EmojiChipsProps {
  emoji: EmojiCount[]
  search: GallerySearch
  /** What the row is, for screen readers. */
  label: string
}

/**
 * Emoji as links that search the gallery for that emoji (the chosen one again clears the search), keeping the
 * rest of it. The search is chosen when it is that emoji alone, in any skin tone.
 */
export function EmojiChips({ emoji, search, label }: EmojiChipsProps) {
  if (emoji.length === 0) return null
  const chosen = search.q ? emojiKey(search.q) : undefined
  return (
    <ChipRow label={label}>
      {emoji.map(({ char, name, count }) => {
        const active = emojiKey(char) === chosen
        // Its name is spoken (and can be said to voice control) but not shown: the emoji is.
        const named = name ? `${char} ${name}` : char
        return (
          <Chip
            key={char}
            search={{ ...search, q: active ? undefined : char }}
            active={active}
            chosenLabel={`${named}, chosen: clear the search`}
            count={count}
            countSeparator=","
          >
            <span className={classes.emoji}>{char}</span>
            {name && (
              <>
                {' '}
                <span className="visually-hidden">{name}</span>
              </>
            )}
          </Chip>
        )
      })}
    </ChipRow>
  )
}

/** A row of chips that scrolls sideways on narrow screens. */
function ChipRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <ul className={classes.row} aria-label={label}>
      {children}
    </ul>
  )
}

interface ChipProps {
  /** Where the chip leads: the search with its value set, or cleared when it is the chosen one. */
  search: GallerySearch
  active: boolean
  /** The chip's name when chosen (it then shows a ✕ instead of its count). */
  chosenLabel: string
  /** How many animations it finds; 0 shows none. */
  count: number
  /** Spoken between the chip's words and its count ('👋 waving hand, 3 animations'). */
  countSeparator?: string
  children: ReactNode
}

/** One chip: a compact light button, filled when chosen. */
function Chip({ search, active, chosenLabel, count, countSeparator = '', children }: ChipProps) {
  return (
    <li className={classes.item}>
      <Link
        to="/"
        search={search}
        className={buttonClasses.button}
        data-size="compact-sm"
        data-radius="xl"
        data-variant={active ? 'filled' : 'light'}
        data-chosen={active || undefined}
        // The name holds the visible words ('#night 2'), so people who speak it to voice control are understood.
        aria-label={active ? chosenLabel : undefined}
      >
        {children}
        {count > 0 && !active && (
          <>
            {countSeparator && <span className="visually-hidden">{countSeparator}</span>} <span className={classes.count}>{count}</span>{' '}
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
}
