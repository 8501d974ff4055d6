import { Text } from '@mantine/core'
import type { ReactNode } from 'react'
import { useOnline } from '../lib/use-online'

export const NEEDS_NETWORK_MESSAGE = 'You are offline: this needs the network'

/**
 * For actions that only work online: `online` says whether to enable them, `note` says why they are
 * not (render it next to the button; it is empty while online).
 */
export function useNeedsNetwork(): { online: boolean; note: ReactNode } {
  const online = useOnline()
  const note = online ? null : (
    <Text size="sm" c="dimmed" role="note">
      {NEEDS_NETWORK_MESSAGE}
    </Text>
  )
  return { online, note }
}
