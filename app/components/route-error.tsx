import { Alert, Button, Group, Text } from '@mantine/core'
import { useQueryErrorResetBoundary } from '@tanstack/react-query'
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router'
import { useEffect } from 'react'
import { errorMessage } from '../lib/error-message'

/** A route's failed load: says what went wrong and retries the loader on demand. */
export function RouteError({ error }: ErrorComponentProps) {
  const router = useRouter()
  const queryErrorResetBoundary = useQueryErrorResetBoundary()

  useEffect(() => {
    queryErrorResetBoundary.reset()
  }, [queryErrorResetBoundary])

  const message = errorMessage(error, 'Something unexpected happened.')
  return (
    <Alert color="red" variant="light" title="Could not load this page" role="alert" my="xl" maw={640} mx="auto">
      <Text size="sm" mb="md">
        {message}
      </Text>
      <Group>
        <Button color="red" onClick={() => void router.invalidate()}>
          Retry
        </Button>
      </Group>
    </Alert>
  )
}
