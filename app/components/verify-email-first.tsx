import { Alert } from '@mantine/core'
import { useLocation } from '@tanstack/react-router'
import { AnchorLink } from './router-links'
import type { ReactNode } from 'react'

/**
 * The notice above a form that needs a verified email address; `children` says what waits for it. Once
 * verified, the waiting page comes back here.
 */
export function VerifyEmailFirst({ children, mb }: { children: ReactNode; mb?: string }) {
  const here = useLocation({ select: (location) => location.href })
  return (
    <Alert color="yellow" variant="light" mb={mb} title="Verify your email address first">
      {children}{' '}
      <AnchorLink to="/emailVerification" search={{ from: here }} inherit c="inherit" underline="always" fw={600}>
        Verify it or send the email again
      </AnchorLink>
    </Alert>
  )
}
