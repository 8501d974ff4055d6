import { Button, Center, Loader, Text } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import { ButtonLink } from '../../../components/router-links'
import { reloadAccount, sendVerificationEmail } from '../../../lib/firebase'
import { usePageTitle } from '../../../lib/page-title'
import type { SessionStore } from '../../../lib/session'
import { useSession, useSessionStore } from '../../../lib/session-provider'
import { authKeys } from '../api'
import { authErrorMessage } from '../auth-errors'
import { AuthCard } from './auth-card'

type Verification = 'verified' | 'not-verified' | 'no-account'

/** Asks Firebase for the account's current flag; once verified, renews our token so its claim follows. */
async function checkVerification(session: SessionStore): Promise<Verification> {
  const account = await reloadAccount()
  if (!account) return 'no-account'
  if (!account.emailVerified) return 'not-verified'
  const current = session.getSnapshot()
  if (current.status === 'signed-in' && !current.user.emailVerified) await session.renew()
  return 'verified'
}

export function EmailVerificationPage() {
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
        <VerificationStatus email={email} />
      ) : (
        <SignInFirst />
      )}
    </AuthCard>
  )
}

function VerificationStatus({ email }: { email: string }) {
  const store = useSessionStore()
  const verification = useQuery({
    queryKey: authKeys.emailVerification(email),
    queryFn: () => checkVerification(store),
    // Check again whenever the user comes back from their mailbox.
    staleTime: 0,
    retry: false,
  })
  const sendAgain = useMutation({
    mutationFn: sendVerificationEmail,
    onSuccess: () => notifications.show({ color: 'green', message: 'Email sent!' }),
    onError: (error) => notifications.show({ color: 'red', message: authErrorMessage(error) }),
  })

  const { error } = verification
  useEffect(() => {
    if (error) notifications.show({ color: 'red', message: authErrorMessage(error) })
  }, [error])

  if (verification.isPending) {
    return (
      <Center>
        <Loader aria-label="Checking your email verification" />
      </Center>
    )
  }
  if (verification.data === 'no-account') return <SignInFirst />
  if (verification.data === 'verified') {
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
