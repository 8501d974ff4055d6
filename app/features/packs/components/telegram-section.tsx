import { Stack, Text } from '@mantine/core'
import type { ReactNode } from 'react'

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
