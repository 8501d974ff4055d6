import { TagsInput } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { normalizeTag, TAG_MAX_LENGTH, TAGS_MAX } from '../../../contract/search'
import { tagsQueryOptions } from './api'

/** How many tags in use the field suggests while typing. */
const SUGGESTIONS = 200

interface TagsFieldProps {
  value: string[]
  onChange: (tags: string[]) => void
  /** The form's errors: the field shows the first about the tags (a whole-list one, or one tag's). */
  errors: Record<string, unknown>
  description: string
}

/** Tags of an animation: typed or picked from the tags in use, normalized as they are added. */
export function TagsField({ value, onChange, errors, description }: TagsFieldProps) {
  const inUse = useQuery(tagsQueryOptions(SUGGESTIONS))
  const error = Object.entries(errors).find(([path]) => path === 'tags' || path.startsWith('tags.'))?.[1]
  return (
    <TagsInput
      label="Tags"
      description={description}
      placeholder={value.length < TAGS_MAX ? 'Add a tag…' : undefined}
      data={(inUse.data ?? []).map((entry) => entry.tag)}
      value={value}
      onChange={(tags) => onChange([...new Set(tags.map(normalizeTag).filter(Boolean))])}
      maxTags={TAGS_MAX}
      maxLength={TAG_MAX_LENGTH}
      splitChars={[',']}
      clearable
      acceptValueOnBlur
      error={typeof error === 'string' ? error : undefined}
      comboboxProps={{ withinPortal: true }}
    />
  )
}
