import { Button, Card, Group, Text, Title } from '@mantine/core'
import { showToast } from '../../../lib/toast'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { ConfirmModal } from '../../../components/confirm-modal'
import { useNeedsNetwork } from '../../../components/needs-network'
import { clientConfigQueryOptions, telegramOn } from '../../../lib/client-config'
import { errorMessage } from '../../../lib/error-message'
import { telegramLinkQueryOptions, useUnlinkTelegram } from '../telegram-link-api'

/**
 * My profile → Telegram (issue 36; README: Telegram sets): whether the account is linked to a Telegram
 * account (made by "Add to Telegram" on one of one's packs), and "Unlink" after a confirmation. Nothing when the
 * server has Telegram off.
 */
export function TelegramLink() {
  const on = useQuery({ ...clientConfigQueryOptions(), select: telegramOn })
  const link = useQuery({ ...telegramLinkQueryOptions(), enabled: on.data === true })
  const unlink = useUnlinkTelegram()
  const network = useNeedsNetwork()
  const [confirming, setConfirming] = useState(false)
  if (!link.data) return null

  async function confirm() {
    try {
      await unlink.mutateAsync()
      showToast({ color: 'green', message: 'Telegram unlinked' })
    } catch (error) {
      showToast({ color: 'red', title: 'Could not unlink Telegram', message: errorMessage(error, 'Please try again.') })
    }
    setConfirming(false)
  }

  return (
    <Card withBorder shadow="sm" padding="lg" component="section" aria-labelledby="telegram-link-heading">
      <Title order={2} size="h4" id="telegram-link-heading" mb="xs">
        Telegram
      </Title>
      {link.data.linked ? (
        <Group justify="space-between">
          <Text>Telegram: linked</Text>
          <Button variant="outline" color="red" onClick={() => setConfirming(true)} disabled={!network.online}>
            Unlink
          </Button>
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          Not linked. “Add to Telegram” on one of your packs links your Telegram account.
        </Text>
      )}
      <ConfirmModal
        title={confirming ? 'Unlink Telegram?' : null}
        confirmLabel="Unlink"
        color="red"
        pending={unlink.isPending}
        online={network.online}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void confirm()}
      >
        The sticker sets already made for you stay in your Telegram. To add another pack you will link again.
      </ConfirmModal>
    </Card>
  )
}
