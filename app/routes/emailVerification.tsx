import { createFileRoute } from '@tanstack/react-router'
import { EmailVerificationPage } from '../features/auth/components/email-verification-page'

export const Route = createFileRoute('/emailVerification')({
  // from: where the user was going; the page moves on there once the email is verified.
  validateSearch: (search: Record<string, unknown>): { from?: string } => (typeof search.from === 'string' ? { from: search.from } : {}),
  component: EmailVerificationRoute,
})

function EmailVerificationRoute() {
  const { from } = Route.useSearch()
  return <EmailVerificationPage from={from} />
}
