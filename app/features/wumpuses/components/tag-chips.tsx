import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { emojiIn, emojiKey } from '../../../../contract/search'
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
 * rest of it. A search for one emoji alone, in any skin tone, is its chip chosen (shown first when it is not
 * among these, like a chosen tag).
 */
export function EmojiChips({ emoji, search, label }: EmojiChipsProps) {
  const searched = search.q && emojiIn(search.q).join('') === search.q && emojiIn(search.q).length === 1 ? search.q : undefined
  const chosen = searched && emojiKey(searched)
  const shown =
    searched && !emoji.some((entry) => emojiKey(entry.char) === chosen) ? [{ char: searched, name: '', count: 0 }, ...emoji] : emoji
  if (shown.length === 0) return null
  return (
    <ChipRow label={label}>
      {shown.map(({ char, name, count }) => {
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
          >
            <span className={classes.emoji}>{char}</span>
            {name && (
              <>
                {' '}
                {/* The comma inside it: browsers put a space between a hidden element and what follows. */}
                <span className="visually-hidden">
                  {name}
                  {count > 0 && ','}
                </span>
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
  children: ReactNode
}

/** One chip: a compact light button, filled when chosen. */
function Chip({ search, active, chosenLabel, count, children }: ChipProps) {
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
}
