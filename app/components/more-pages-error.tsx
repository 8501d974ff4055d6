import { Alert, Button, Group, Text } from '@mantine/core'

interface MorePagesErrorProps {
  noun: string
  onRetry: () => void
  retrying: boolean
}

/** The next page of a list could not be loaded: say so, with Retry. */
export default function MorePagesError({ noun, onRetry, retrying }: MorePagesErrorProps) {
  return (
    <Alert color="red" variant="light" title={`Could not load more ${noun}`} maw={640} mx="auto" w="100%">
      <Group justify="space-between">
        <Text size="sm">Check your connection and try again.</Text>
        <Button color="red" onClick={onRetry} loading={retrying}>
          Retry
        </Button>
      </Group>
    </Alert>
  )
}
