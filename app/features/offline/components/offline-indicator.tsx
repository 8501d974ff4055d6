import { Badge, Container, Group, Text } from '@mantine/core'
import { useOnline } from '../use-online'

/** A strip under the header while the browser is offline. */
export function OfflineIndicator() {
  const online = useOnline()
  // The polite live region is always there, so the strip is announced when it appears.
  return (
    <div aria-live="polite">
      {!online && (
        <Container size="xl" py={6} role="status">
          <Group gap="xs" wrap="nowrap">
            <Badge color="yellow" autoContrast variant="filled" style={{ flexShrink: 0 }}>
              Offline
            </Badge>
            <Text size="sm">Showing saved copies. Actions that need the network are off.</Text>
          </Group>
        </Container>
      )}
    </div>
  )
}
