import { isPlatform, PLATFORM_LABELS, PLATFORMS } from '../../../../contract/platforms'
import type { GallerySearch } from '../gallery-search'
import classes from './fits-select.module.css'

interface FitsSelectProps {
  search: GallerySearch
  onChange: (next: GallerySearch) => void
  /** The id of the search form it belongs to, so a search sent without the app keeps the platform. */
  form?: string
}

/**
 * Which chat platform the animations must have a ready sticker file for ("Fits: Discord"), or any. A
 * plain select shaped like the tag chips beside it (the home page's script budget has no room for Mantine's).
 */
export function FitsSelect({ search, onChange, form }: FitsSelectProps) {
  return (
    <select
      className={classes.select}
      name="fits"
      form={form}
      aria-label="Fits a platform"
      title="Only stickers with a ready file for this chat platform"
      value={search.fits ?? ''}
      data-chosen={search.fits ? true : undefined}
      onChange={(event) => {
        const chosen = event.currentTarget.value
        onChange({ ...search, fits: isPlatform(chosen) ? chosen : undefined })
      }}
    >
      <option value="">Fits: Any</option>
      {PLATFORMS.map((platform) => (
        <option key={platform} value={platform}>
          Fits: {PLATFORM_LABELS[platform]}
        </option>
      ))}
    </select>
  )
}
