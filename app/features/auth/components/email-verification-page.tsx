import { Button, Center, Loader, Text } from '@mantine/core'
import { showToast } from '../../../lib/toast'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useEffect } from 'react'
import { ButtonLink } from '../../../components/router-links'
import { reloadAccount, sendVerificationEmail } from '../../../lib/firebase'
import { usePageTitle } from '../../../lib/page-title'
import { returnPath } from '../../../lib/paths'
import type { SessionStore } from '../../../lib/session'
import { useSession, useSessionStore } from '../../../lib/session-provider'
import { authKeys } from '../api'
import { authErrorMessage } from '../auth-errors'
import { AuthCard } from './auth-card'

/** 'just-verified': verified since this session began, so the session was renewed and the page moves on. */
type Verification = 'verified' | 'just-verified' | 'not-verified' | 'no-account'

/** While the email waits for its link, the page asks Firebase again this often (only while it is in view). */
const CHECK_EVERY_MS = 5_000

/** Asks Firebase for the account's current flag; once verified, renews our token so its claim follows. */
async function checkVerification(session: SessionStore): Promise<Verification> {
  const account = await reloadAccount()
  if (!account) return 'no-account'
  if (!account.emailVerified) return 'not-verified'
  const current = session.getSnapshot()
  if (current.status !== 'signed-in' || current.user.emailVerified) return 'verified'
  // As after a sign-in: a fresh Firebase token carries the flag into our session's claims.
  if (!(await session.renew())) throw new Error('Your email is verified, but your session could not be renewed. Try again.')
  return 'just-verified'
}

/** /emailVerification. `from`: where the user was going, to move on there once verified (else the dashboard). */
export function EmailVerificationPage({ from }: { from?: string }) {
  usePageTitle('Email verification')
  const session = useSession()
  const email = session.status === 'signed-in' ? session.user.email : null

  return (
    <AuthCard title="Email Verification">
      {session.status === 'loading' ? (
        <Center>
          <Loader aria-label="Loading" />
        </Center>
      ) : email ? (
        <VerificationStatus email={email} from={from} />
      ) : (
        <SignInFirst />
      )}
    </AuthCard>
  )
}

function VerificationStatus({ email, from }: { email: string; from?: string }) {
  const store = useSessionStore()
  const navigate = useNavigate()
  const verification = useQuery({
    queryKey: authKeys.emailVerification(email),
    queryFn: () => checkVerification(store),
    staleTime: 0,
    retry: false,
    // Checked when the user comes back from their mailbox (below), and on a timer while waiting in view.
    refetchOnWindowFocus: false,
    refetchInterval: (query) => (query.state.data === 'not-verified' && query.state.status === 'success' ? CHECK_EVERY_MS : false),
    refetchIntervalInBackground: false,
  })
  const waiting = verification.data !== 'verified' && verification.data !== 'just-verified'
  const { refetch } = verification
  useEffect(() => {
    if (!waiting) return
    const checkNow = () => {
      if (document.visibilityState !== 'hidden') void refetch({ cancelRefetch: false })
    }
    window.addEventListener('focus', checkNow)
    document.addEventListener('visibilitychange', checkNow)
    return () => {
      window.removeEventListener('focus', checkNow)
      document.removeEventListener('visibilitychange', checkNow)
    }
  }, [waiting, refetch])

  const justVerified = verification.data === 'just-verified'
  useEffect(() => {
    if (!justVerified) return
    showToast({ color: 'green', message: 'Your email is verified.' })
    void navigate({ href: from ? returnPath(from) : '/dashboard', replace: true })
  }, [justVerified, from, navigate])

  const sendAgain = useMutation({
    mutationFn: () => sendVerificationEmail(from ? `/emailVerification?${new URLSearchParams({ from }).toString()}` : undefined),
    onSuccess: () => showToast({ color: 'green', message: 'Email sent!' }),
    onError: (error) => showToast({ color: 'red', message: authErrorMessage(error) }),
  })

  const { error } = verification
  useEffect(() => {
    if (error) showToast({ color: 'red', message: authErrorMessage(error) })
  }, [error])

  if (verification.isPending) {
    return (
      <Center>
        <Loader aria-label="Checking your email verification" />
      </Center>
    )
  }
  if (verification.data === 'no-account') return <SignInFirst />
  if (!waiting) {
    return (
      <>
        <Text ta="center">You signed up successfully and your email is verified.</Text>
        <ButtonLink to="/" fullWidth>
          Ok
        </ButtonLink>
      </>
    )
  }
  return (
    <>
      <Text ta="center">
        We sent a verification link to <strong>{email}</strong>. Please check your email and follow the link, then come back here.
      </Text>
      <Text ta="center" size="sm" c="dimmed">
        This page moves on by itself once your email is verified.
      </Text>
      <Button fullWidth onClick={() => sendAgain.mutate()} loading={sendAgain.isPending}>
        Send Again
      </Button>
      {verification.isError && (
        <Button variant="default" fullWidth onClick={() => void verification.refetch()} loading={verification.isFetching}>
          Check again
        </Button>
      )}
    </>
  )
}

function SignInFirst() {
  return (
    <>
      <Text ta="center">Sign in to see whether your email is verified.</Text>
      <ButtonLink to="/signIn" search={{ from: '/emailVerification' }} fullWidth>
        Sign in
      </ButtonLink>
    </>
  )
}
