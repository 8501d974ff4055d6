import { Alert } from '@mantine/core'

/** The small red card under an auth form. */
export function AuthErrorCard({ message }: { message: string | null }) {
  if (!message) return null
  return (
    <Alert color="red" variant="light" role="alert" p="xs" styles={{ message: { fontSize: 'var(--mantine-font-size-sm)' } }}>
      {message}
    </Alert>
  )
}
