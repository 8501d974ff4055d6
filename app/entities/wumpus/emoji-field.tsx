import { Button, Input, Pill, Popover, SimpleGrid, Text, TextInput, UnstyledButton } from '@mantine/core'
import { useId, useMemo, useState } from 'react'
import { findEmoji, searchEmojiCatalog } from '../../../contract/emoji'
import { EMOJI_MAX, EMOJI_PRIMARY } from '../../../contract/limits'
import { emojiIn, emojiKey } from '../../../contract/search'
import classes from './emoji-field.module.css'

/** How many matches the picker shows at once; a search narrows them. */
const SHOWN = 96

interface EmojiFieldProps {
  /** The emoji as characters, in order. */
  value: string[]
  onChange: (emoji: string[]) => void
  /** The form's errors: the field shows the first about the emoji (the list's, or one emoji's). */
  errors: Record<string, unknown>
  required?: boolean
  /** At most this many (a submission takes 1 to 3). */
  max?: number
}

/**
 * A sticker's emoji: picked from every emoji by name, or typed and pasted. The first EMOJI_PRIMARY are
 * what chat apps show with the sticker, so they are marked.
 */
export function EmojiField({ value, onChange, errors, required = false, max = EMOJI_MAX }: EmojiFieldProps) {
  const [opened, setOpened] = useState(false)
  const [query, setQuery] = useState('')
  const id = useId()
  const matches = useMemo(() => searchEmojiCatalog(query), [query])
  const error = Object.entries(errors).find(([path]) => path === 'emoji' || path.startsWith('emoji.'))?.[1]
  const full = value.length >= max

  const add = (chars: string[]) => {
    const next = [...value]
    for (const char of chars) {
      const found = findEmoji(char)
      if (found && !next.some((kept) => emojiKey(kept) === emojiKey(found.char)) && next.length < max) next.push(found.char)
    }
    if (next.length !== value.length) onChange(next)
  }

  return (
    <Input.Wrapper
      label={`Emoji${required ? '*' : ''}`}
      description={
        max < EMOJI_MAX
          ? `What chat apps suggest the sticker for, ${max} at most: the first goes with it to Signal and Discord.`
          : `What chat apps suggest the sticker for: the first ${EMOJI_PRIMARY} go with it to WhatsApp, the first to Signal and Discord, up to ${EMOJI_MAX} to Telegram.`
      }
      error={typeof error === 'string' ? error : undefined}
      labelElement="div"
      id={id}
    >
      <div className={classes.row}>
        {value.length > 0 && (
          <Pill.Group role="group" aria-labelledby={`${id}-label`}>
            {value.map((char, index) => {
              const name = findEmoji(char)?.name ?? char
              return (
                <Pill
                  key={char}
                  size="lg"
                  withRemoveButton
                  onRemove={() => onChange(value.filter((kept) => kept !== char))}
                  // Mantine hides the button from keyboards and screen readers (made for PillsInput, which has Backspace).
                  removeButtonProps={{ 'aria-label': `Remove ${name}`, 'aria-hidden': false, tabIndex: 0 }}
                  className={classes.pill}
                  data-primary={index < EMOJI_PRIMARY || undefined}
                  title={name}
                >
                  <span role="img" aria-label={name}>
                    {char}
                  </span>
                </Pill>
              )
            })}
          </Pill.Group>
        )}
        <Popover opened={opened} onChange={setOpened} position="bottom-start" width={320} trapFocus withinPortal shadow="md">
          <Popover.Target>
            <Button variant="default" size="xs" onClick={() => setOpened((open) => !open)} disabled={full} aria-expanded={opened}>
              {value.length === 0 ? 'Add emoji' : 'Add more'}
            </Button>
          </Popover.Target>
          <Popover.Dropdown>
            <TextInput
              label="Search emoji"
              placeholder="wave, heart, party… or paste emoji"
              value={query}
              onChange={(event) => setQuery(event.currentTarget.value)}
              onKeyDown={(event) => {
                if (event.key !== 'Enter') return
                event.preventDefault()
                const typed = emojiIn(query)
                add(typed.length > 0 ? typed : matches.slice(0, 1).map((match) => match.char))
                setQuery('')
              }}
              data-autofocus
              size="xs"
            />
            <SimpleGrid cols={8} spacing={2} mt="xs" className={classes.grid} role="group" aria-label="Matching emoji">
              {matches.slice(0, SHOWN).map((match) => {
                const chosen = value.some((kept) => emojiKey(kept) === emojiKey(match.char))
                return (
                  <UnstyledButton
                    key={match.char}
                    className={classes.choice}
                    onClick={() => add([match.char])}
                    disabled={chosen || full}
                    aria-label={match.name}
                    aria-pressed={chosen}
                    title={match.name}
                  >
                    {match.char}
                  </UnstyledButton>
                )
              })}
            </SimpleGrid>
            {matches.length === 0 && (
              <Text size="sm" c="dimmed" mt="xs">
                No emoji matches “{query}”.
              </Text>
            )}
          </Popover.Dropdown>
        </Popover>
      </div>
    </Input.Wrapper>
  )
}
