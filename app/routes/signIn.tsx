import { createFileRoute } from '@tanstack/react-router'
import { SignInPage } from '../features/auth/components/sign-in-page'

export const Route = createFileRoute('/signIn')({
  // from: the protected page that sent the user here (see _authenticated.tsx).
  validateSearch: (search: Record<string, unknown>): { from?: string } => (typeof search.from === 'string' ? { from: search.from } : {}),
  component: SignInRoute,
})

function SignInRoute() {
  const { from } = Route.useSearch()
  return <SignInPage from={from} />
}
