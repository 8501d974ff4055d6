import { createFileRoute } from '@tanstack/react-router'
import { EmailVerificationPage } from '../features/auth/components/email-verification-page'

export const Route = createFileRoute('/emailVerification')({
  component: EmailVerificationPage,
})
