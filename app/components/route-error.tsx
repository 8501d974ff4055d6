import { Alert, Button, Group, Text } from '@mantine/core'
import { useQueryErrorResetBoundary } from '@tanstack/react-query'
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router'
import { useEffect } from 'react'
import { isAdminsOnly } from '../lib/admin-role'
import { errorMessage } from '../lib/error-message'
import { AdminsOnly } from './admins-only'

/** A route's failed load: says what went wrong and retries the loader on demand (an admin page's refusal: "Admins only"). */
export function RouteError({ error }: ErrorComponentProps) {
  return isAdminsOnly(error) ? <AdminsOnly /> : <LoadFailed error={error} />
}

function LoadFailed({ error }: Pick<ErrorComponentProps, 'error'>) {
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
