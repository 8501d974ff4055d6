import { Alert, Anchor } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'

/** The notice above a form that needs a verified email address; `children` says what waits for it. */
export function VerifyEmailFirst({ children, mb }: { children: ReactNode; mb?: string }) {
  return (
    <Alert color="yellow" variant="light" mb={mb} title="Verify your email address first">
      {children}{' '}
      <Anchor component={Link} to="/emailVerification" inherit c="inherit" underline="always" fw={600}>
        Verify it or send the email again
      </Anchor>
    </Alert>
  )
}
