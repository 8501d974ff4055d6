import { Button, Group, Stack, Text, Title } from '@mantine/core'
import { PLATFORM_LABELS } from '../../../../contract/platforms'
import type { TagCount } from '../../../../contract/wumpus'
import type { GallerySearch } from '../gallery-search'
import { TagChips } from './tag-chips'

interface GalleryEmptyProps {
  search: GallerySearch
  onChange: (next: GallerySearch) => void
  /** Popular tags to suggest. */
  tags: TagCount[]
  /** The answer came from what this device stored (offline). */
  offline: boolean
}

/** Nothing matched: say what was asked, offer to loosen it, and suggest tags that do have animations. */
export function GalleryEmpty({ search, onChange, tags, offline }: GalleryEmptyProps) {
  const filtered = Boolean(search.q || search.tag || search.fits)
  if (!filtered) return <Text>No animations yet. Come back soon!</Text>
  const asked = [search.q && `“${search.q}”`, search.tag && `#${search.tag}`].filter(Boolean).join(' in ')
  const fits = search.fits && PLATFORM_LABELS[search.fits]
  const filters = [search.q, search.tag, search.fits].filter(Boolean).length
  const suggestions = tags.filter((entry) => entry.tag !== search.tag).slice(0, 8)
  return (
    <Stack gap="sm" py="lg" role="status">
      <Title order={2} size="h3">
        {asked ? `No animations match ${asked}${fits ? ` with a ${fits} file` : ''}` : `No animations have a ${fits} file yet`}
      </Title>
      <Text c="dimmed">
        {offline
          ? 'You are offline, so only the animations stored on this device were searched. Try fewer words, or search again once you are back online.'
          : 'Check the spelling, try fewer or shorter words (the start of a word is enough), or browse a tag.'}
      </Text>
      <Group gap="sm">
        {search.q && (
          <Button variant="default" onClick={() => onChange({ ...search, q: undefined })}>
            Clear search
          </Button>
        )}
        {search.tag && (
          <Button variant="default" onClick={() => onChange({ ...search, tag: undefined })}>
            Clear tag
          </Button>
        )}
        {search.fits && (
          <Button variant="default" onClick={() => onChange({ ...search, fits: undefined })}>
            Any platform
          </Button>
        )}
        {filters > 1 && (
          <Button variant="subtle" onClick={() => onChange({ sort: search.sort })}>
            Show everything
          </Button>
        )}
      </Group>
      {suggestions.length > 0 && (
        <Stack gap={6}>
          <Text size="sm" fw={500}>
            Popular tags
          </Text>
          <TagChips tags={suggestions} search={{ sort: search.sort }} label="Popular tags" />
        </Stack>
      )}
    </Stack>
  )
}
