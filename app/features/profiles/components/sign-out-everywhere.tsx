import { Button, Card, Group, Text, Title } from '@mantine/core'
import { showToast } from '../../../lib/toast'
import { useState } from 'react'
import { errorMessage } from '../../../lib/error-message'
import { revocationFailure } from '../../../lib/revocation-failed'
import { ConfirmModal } from '../../../components/confirm-modal'
import { useNeedsNetwork } from '../../../components/needs-network'
import { useSignOutEverywhere } from '../api'

interface SignOutEverywhereProps {
  /** The server takes this from verified emails only. */
  emailVerified: boolean
  /** Signs out here once every session ended on the server (the route: leave the page, then the session's signOut). */
  onSignedOut: () => Promise<void>
}

const REVOCATION_FAILED_TITLE = 'Signed out everywhere, but sign-ins were not revoked'

/**
 * My profile → "Sign out everywhere": after a confirmation every session of the account ends, on the
 * server (other devices must sign in again) and here (with the usual sign-out: personal data forgotten).
 */
export function SignOutEverywhere({ emailVerified, onSignedOut }: SignOutEverywhereProps) {
  const [confirming, setConfirming] = useState(false)
  const signOutEverywhere = useSignOutEverywhere()
  const network = useNeedsNetwork()

  async function confirm() {
    try {
      await signOutEverywhere.mutateAsync()
    } catch (error) {
      setConfirming(false)
      if (revocationFailure(error)) {
        // Every session ended on the server, this one too: only Firebase's revocation is to be tried again.
        await onSignedOut()
        showToast({ color: 'red', title: REVOCATION_FAILED_TITLE, message: errorMessage(error, 'Please try again.') })
        return
      }
      showToast({ color: 'red', title: 'Could not sign out everywhere', message: errorMessage(error, 'Please try again.') })
      return
    }
    setConfirming(false)
    await onSignedOut()
    showToast({ color: 'green', message: 'Signed out everywhere' })
  }

  return (
    <Card withBorder shadow="sm" padding="lg" component="section" aria-labelledby="sign-out-everywhere-heading">
      <Title order={2} size="h4" id="sign-out-everywhere-heading" mb="xs">
        Signed-in devices
      </Title>
      <Text size="sm" mb="md">
        Lost a phone, or signed in on a shared computer? End your session on every device at once, this one included.
      </Text>
      <Group>
        <Button
          variant="outline"
          color="red"
          onClick={() => setConfirming(true)}
          disabled={!network.online || !emailVerified}
          w={{ base: '100%', xs: 'auto' }}
        >
          Sign out everywhere
        </Button>
        {emailVerified ? (
          network.note
        ) : (
          <Text size="sm" c="dimmed">
            Verify your email address first.
          </Text>
        )}
      </Group>

      <ConfirmModal
        title={confirming ? 'Sign out everywhere?' : null}
        confirmLabel="Sign out everywhere"
        color="red"
        pending={signOutEverywhere.isPending}
        online={network.online}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void confirm()}
      >
        You will be signed out on every device, this one included, and need to sign in again on each. Your saved stickers stay.
      </ConfirmModal>
    </Card>
  )
}
