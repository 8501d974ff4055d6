import { Alert, Button, Text } from '@mantine/core'
import { errorMessage } from '../lib/error-message'

interface LoadErrorProps {
  /** What could not be loaded, e.g. 'Could not search the gallery'. */
  title: string
  error: unknown
  onRetry: () => void
  retrying?: boolean
  /** Centre it with space around, for a whole page. */
  page?: boolean
}

/** A failed load: the server's reason (or a plain one) and a Retry button. */
export function LoadError({ title, error, onRetry, retrying = false, page = false }: LoadErrorProps) {
  return (
    <Alert color="red" variant="light" title={title} role="alert" maw={640} w="100%" {...(page ? { my: 'xl', mx: 'auto' } : {})}>
      <Text size="sm" mb="md">
        {errorMessage(error, 'Something unexpected happened.')}
      </Text>
      <Button color="red" onClick={onRetry} loading={retrying}>
        Retry
      </Button>
    </Alert>
  )
}
