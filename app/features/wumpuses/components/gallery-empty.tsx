import { PLATFORM_LABELS } from '../../../../contract/platforms'
import { emojiKey } from '../../../../contract/search'
import type { EmojiCount, TagCount } from '../../../../contract/wumpus'
import { Link } from '@tanstack/react-router'
import buttonClasses from '../../../components/button.module.css'
import type { GallerySearch } from '../gallery-search'
import classes from './gallery-empty.module.css'
import { EmojiChips, TagChips } from './tag-chips'

interface GalleryEmptyProps {
  search: GallerySearch
  /** Popular tags to suggest. */
  tags: TagCount[]
  /** Popular emoji to suggest. */
  emoji: EmojiCount[]
  /** The answer came from what this device stored (offline). */
  offline: boolean
}

/** Nothing matched: say what was asked, offer to loosen it, and suggest tags and emoji that do have animations. */
export function GalleryEmpty({ search, tags, emoji, offline }: GalleryEmptyProps) {
  const filtered = Boolean(search.q || search.tag || search.fits)
  if (!filtered) return <p className={classes.text}>No animations yet. Come back soon!</p>
  const asked = [search.q && `“${search.q}”`, search.tag && `#${search.tag}`].filter(Boolean).join(' in ')
  const fits = search.fits && PLATFORM_LABELS[search.fits]
  const filters = [search.q, search.tag, search.fits].filter(Boolean).length
  const suggestions = tags.filter((entry) => entry.tag !== search.tag).slice(0, 8)
  const emojiSuggestions = emoji.filter((entry) => emojiKey(entry.char) !== emojiKey(search.q ?? '')).slice(0, 8)
  return (
    <div className={classes.empty} role="status">
      <h2 className="title-h3">
        {asked ? `No animations match ${asked}${fits ? ` with a ${fits} file` : ''}` : `No animations have a ${fits} file yet`}
      </h2>
      <p className={`${classes.text} ${classes.dimmed}`}>
        {offline
          ? 'You are offline, so only the animations stored on this device were searched. Try fewer words, or search again once you are back online.'
          : 'Check the spelling, try fewer or shorter words (the start of a word is enough), or browse a tag.'}
      </p>
      {/* Links: they work before the app runs too. */}
      <div className={classes.actions}>
        {search.q && <LooserSearch search={{ ...search, q: undefined }}>Clear search</LooserSearch>}
        {search.tag && <LooserSearch search={{ ...search, tag: undefined }}>Clear tag</LooserSearch>}
        {search.fits && <LooserSearch search={{ ...search, fits: undefined }}>Any platform</LooserSearch>}
        {filters > 1 && (
          <LooserSearch search={{ sort: search.sort }} variant="subtle">
            Show everything
          </LooserSearch>
        )}
      </div>
      {suggestions.length > 0 && (
        <div className={classes.suggestions}>
          <p className={classes.suggestionsTitle}>Popular tags</p>
          <TagChips tags={suggestions} search={{ sort: search.sort }} label="Popular tags" />
        </div>
      )}
      {emojiSuggestions.length > 0 && (
        <div className={classes.suggestions}>
          <p className={classes.suggestionsTitle}>Popular emoji</p>
          <EmojiChips emoji={emojiSuggestions} search={{ sort: search.sort }} label="Popular emoji" />
        </div>
      )}
    </div>
  )
}

function LooserSearch({
  search,
  variant = 'default',
  children,
}: {
  search: GallerySearch
  variant?: 'default' | 'subtle'
  children: string
}) {
  return (
    <Link to="/" search={search} resetScroll={false} className={buttonClasses.button} data-variant={variant}>
      {children}
    </Link>
  )
}
