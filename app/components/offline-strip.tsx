import { Badge, Container, Group, Text } from '@mantine/core'

export default function OfflineStrip() {
  return (
    <Container size="xl" py={6} role="status">
      <Group gap="xs" wrap="nowrap">
        <Badge color="yellow" autoContrast variant="filled" style={{ flexShrink: 0 }}>
          Offline
        </Badge>
        <Text size="sm">Showing saved copies. Actions that need the network are off.</Text>
      </Group>
    </Container>
  )
}
