import { TagsInput } from '@mantine/core'
import { KEYWORDS_MAX, KEYWORDS_TOTAL_MAX } from '../../../contract/limits'

interface KeywordsFieldProps {
  value: string[]
  onChange: (keywords: string[]) => void
  /** The form's errors: the field shows the first about the keywords. */
  errors: Record<string, unknown>
}

/** A sticker's search keywords (Telegram's too): typed, comma-separated, lower case as they are added. */
export function KeywordsField({ value, onChange, errors }: KeywordsFieldProps) {
  const error = Object.entries(errors).find(([path]) => path === 'keywords' || path.startsWith('keywords.'))?.[1]
  const used = value.join('').length
  return (
    <TagsInput
      label="Keywords"
      description={`What people type to find it, here and in Telegram: at most ${KEYWORDS_MAX}, ${KEYWORDS_TOTAL_MAX} characters in all (${used} used)`}
      placeholder={value.length < KEYWORDS_MAX ? 'Add a keyword…' : undefined}
      value={value}
      onChange={(keywords) => onChange([...new Set(keywords.map((k) => k.trim().replace(/\s+/g, ' ').toLowerCase()).filter(Boolean))])}
      maxTags={KEYWORDS_MAX}
      splitChars={[',']}
      clearable
      acceptValueOnBlur
      error={typeof error === 'string' ? error : undefined}
    />
  )
}
