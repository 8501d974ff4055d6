import { Button, Group, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import type { PackTelegram as PackTelegramSet } from '../../../../contract/pack'
import { useIsAdmin } from '../../../lib/admin-role'
import { clientConfigQueryOptions, telegramOn } from '../../../lib/client-config'
import { useMakeTelegramSet } from '../api'
import { TelegramEmojiButton, TelegramEmojiFailure, TelegramSection } from './telegram-section'

/**
 * A public pack's Telegram sticker set (README: Telegram sets): "Add to Telegram" opens it in Telegram once it
 * exists, and "Add emoji to Telegram" its custom emoji set once that exists; admins make it, or bring it in
 * step, with "Make Telegram set" and see its state. Nothing shows when the server has Telegram off (no set in
 * the pack, and GET /api/config says so).
 */
export function PackTelegram({ packId, telegram }: { packId: string; telegram?: PackTelegramSet }) {
  const { isAdmin } = useIsAdmin()
  const on = useQuery({ ...clientConfigQueryOptions(), select: telegramOn, enabled: isAdmin && telegram === undefined })
  const make = useMakeTelegramSet(packId)
  if (!telegram && !(isAdmin && on.data === true)) return null
  return (
    <TelegramSection error={make.isError ? make.error.message : undefined}>
      <Group gap="xs">
        {telegram?.url && (
          <Button component="a" href={telegram.url} target="_blank" rel="noopener noreferrer">
            Add to Telegram
          </Button>
        )}
        <TelegramEmojiButton emoji={telegram?.emoji} />
        {isAdmin && (
          <Button variant="default" loading={make.isPending} onClick={() => make.mutate()}>
            {telegram ? 'Update Telegram set' : 'Make Telegram set'}
          </Button>
        )}
      </Group>
      {!telegram?.url && !isAdmin && telegram?.state === 'making' && (
        <Text size="sm" c="dimmed">
          The Telegram set is being made.
        </Text>
      )}
      {isAdmin && telegram && (
        <Text size="sm" c={telegram.state === 'failed' ? 'red.8' : 'dimmed'} role="status">
          {telegram.state === 'ready'
            ? 'The Telegram set matches the pack.'
            : telegram.state === 'making'
              ? 'The Telegram set is being made…'
              : 'The Telegram set could not be made.'}
          {telegram.reason ? ` ${telegram.reason}` : ''}
        </Text>
      )}
      {isAdmin && <TelegramEmojiFailure emoji={telegram?.emoji} />}
    </TelegramSection>
  )
}
