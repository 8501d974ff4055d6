import { Button, Stack, Text } from '@mantine/core'
import type { ReactNode } from 'react'
import type { PackTelegramEmoji } from '../../../../contract/pack'

/** The pack page's Telegram section, as both its public and its personal forms show it: the heading, what they put in, and an error. */
export function TelegramSection({ children, error }: { children: ReactNode; error?: string }) {
  return (
    <section aria-labelledby="pack-telegram-heading">
      <Text component="h2" fw={700} size="lg" id="pack-telegram-heading" mb="xs">
        Telegram
      </Text>
      <Stack gap="xs">
        {children}
        {error !== undefined && (
          <Text size="sm" c="red.8" role="alert">
            {error}
          </Text>
        )}
      </Stack>
    </section>
  )
}

/** "Add emoji to Telegram": opens the pack's custom emoji set (t.me/addemoji/…) once it exists; nothing for a pack without one. */
export function TelegramEmojiButton({ emoji }: { emoji?: PackTelegramEmoji }) {
  if (!emoji?.url) return null
  return (
    <Button component="a" variant="light" href={emoji.url} target="_blank" rel="noopener noreferrer">
      Add emoji to Telegram
    </Button>
  )
}

/** Why the custom emoji set could not be made, when it could not (the sticker set stays as it is). */
export function TelegramEmojiFailure({ emoji }: { emoji?: PackTelegramEmoji }) {
  if (emoji?.state !== 'failed') return null
  return (
    <Text size="sm" c="red.8">
      The Telegram emoji set could not be made.{emoji.reason ? ` ${emoji.reason}` : ''}
    </Text>
  )
}
