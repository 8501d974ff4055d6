import { Anchor, Button, Group, Text } from '@mantine/core'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { PackTelegram } from '../../../../contract/pack'
import { TELEGRAM_START_URL_PATTERN } from '../../../../contract/limits'
import type { TelegramNotLinked } from '../../../../contract/telegram-link'
import { isApiError } from '../../../lib/api-client'
import { clientConfigQueryOptions, telegramOn } from '../../../lib/client-config'
import { packKeys, useMakeTelegramSet } from '../api'
import { TelegramEmojiButton, TelegramEmojiFailure, TelegramSection } from './telegram-section'

/** While the owner links their Telegram account, the pack is asked for again this often. */
const LINK_POLL_MS = 3000

/** The bot's start link in the 409's details, checked as the contract says (the page links to it). */
function notLinkedStartUrl(details: unknown): string | undefined {
  const { reason, startUrl } = (details ?? {}) as Partial<TelegramNotLinked>
  return reason === 'telegram-not-linked' && typeof startUrl === 'string' && TELEGRAM_START_URL_PATTERN.test(startUrl)
    ? startUrl
    : undefined
}

/**
 * A personal pack's Telegram set, for its owner (issue 36; README: Telegram sets): "Add to Telegram" asks for it;
 * until their Telegram account is linked the answer carries the bot's start link, shown with what to do; the pack
 * is then asked for again until the set is made, and "Add to Telegram" opens it ("Add emoji to Telegram" its custom
 * emoji set, once that exists). Nothing when Telegram is off.
 */
export function PackTelegramOwn({ packId, telegram }: { packId: string; telegram?: PackTelegram }) {
  const on = useQuery({ ...clientConfigQueryOptions(), select: telegramOn, enabled: telegram === undefined })
  const make = useMakeTelegramSet(packId)
  const queryClient = useQueryClient()
  const startUrl = isApiError(make.error, 409) ? notLinkedStartUrl(make.error.details) : undefined
  const waiting = startUrl !== undefined && telegram === undefined

  useEffect(() => {
    if (!waiting) return
    const timer = setInterval(() => void queryClient.invalidateQueries({ queryKey: packKeys.detail(packId) }), LINK_POLL_MS)
    return () => clearInterval(timer)
  }, [waiting, packId, queryClient])

  if (!telegram && on.data !== true) return null
  return (
    <TelegramSection error={make.isError && !startUrl ? make.error.message : undefined}>
      <Group gap="xs">
        {telegram?.url ? (
          <Button component="a" href={telegram.url} target="_blank" rel="noopener noreferrer">
            Add to Telegram
          </Button>
        ) : (
          !waiting &&
          telegram?.state !== 'making' && (
            <Button loading={make.isPending} onClick={() => make.mutate()}>
              {telegram?.state === 'failed' ? 'Try again' : 'Add to Telegram'}
            </Button>
          )
        )}
        <TelegramEmojiButton emoji={telegram?.emoji} />
      </Group>
      {waiting && (
        <Text size="sm" role="status">
          <Anchor href={startUrl} target="_blank" rel="noopener noreferrer">
            Open the bot in Telegram
          </Anchor>
          , press Start, then come back. This page follows on its own.
        </Text>
      )}
      {telegram && !telegram.url && (
        <Text size="sm" c={telegram.state === 'failed' ? 'red.8' : 'dimmed'} role="status">
          {telegram.state === 'failed' ? 'Your Telegram set could not be made.' : 'Your Telegram set is being made…'}
          {telegram.reason ? ` ${telegram.reason}` : ''}
        </Text>
      )}
      <TelegramEmojiFailure emoji={telegram?.emoji} />
    </TelegramSection>
  )
}
