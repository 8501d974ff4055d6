import { Button, Divider, Grid, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { signInFormSchema, type SignInForm } from '../../../../contract/user'
import { AnchorLink } from '../../../components/router-links'
import { signInWithEmail, signInWithGoogle, type FirebaseAccount } from '../../../lib/firebase'
import { usePageTitle } from '../../../lib/page-title'
import { returnPath } from '../../../lib/paths'
import { useSessionStore } from '../../../lib/session-provider'
import { useNeedsNetwork } from '../../../components/needs-network'
import { authErrorMessage } from '../auth-errors'
import { useSchemaForm } from '../../../lib/use-schema-form'
import { AuthErrorCard } from './auth-error-card'
import { AuthMascot } from './auth-mascot'
import { GoogleButton } from './google-button'

/** /signIn. `from`: where the user was sent here from, to go back there after signing in. */
export function SignInPage({ from }: { from?: string }) {
  usePageTitle('Sign in')
  const navigate = useNavigate()
  const session = useSessionStore()
  const network = useNeedsNetwork()
  const [error, setError] = useState<string | null>(null)
  const [googleBusy, setGoogleBusy] = useState(false)
  const { form, onSubmit } = useSchemaForm<SignInForm>(signInFormSchema, { email: '', password: '' })
  const busy = form.submitting || googleBusy

  async function finish(signIn: () => Promise<FirebaseAccount>) {
    setError(null)
    try {
      await session.exchange(await signIn())
      await navigate({ href: returnPath(from), replace: true })
    } catch (cause) {
      setError(authErrorMessage(cause))
    }
  }

  async function withGoogle() {
    setGoogleBusy(true)
    await finish(signInWithGoogle)
    setGoogleBusy(false)
  }

  return (
    <Grid gap="xl" align="center" justify="center" py={{ base: 'xs', md: 'xl' }}>
      <Grid.Col span={{ base: 12, md: 6 }} order={{ base: 1, md: 0 }}>
        <AuthMascot busy={busy} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6 }} maw={480}>
        <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="md">
          <Stack gap="md">
            <Title order={1} ta="center">
              Sign in
            </Title>
            <GoogleButton onClick={() => void withGoogle()} loading={googleBusy} disabled={form.submitting || !network.online}>
              Sign in with Google
            </GoogleButton>
            <Divider label="or with your email" labelPosition="center" />
            <form noValidate onSubmit={onSubmit(({ email, password }) => finish(() => signInWithEmail(email, password)))}>
              <Stack gap="sm">
                <TextInput label="Email Address*" type="email" autoComplete="email" {...form.getInputProps('email')} />
                <PasswordInput label="Password*" autoComplete="current-password" {...form.getInputProps('password')} />
                <Group justify="flex-end">
                  <AnchorLink to="/forgetPassword" size="sm">
                    Forget Password?
                  </AnchorLink>
                </Group>
                <AuthErrorCard message={error} />
                <Button type="submit" fullWidth loading={form.submitting} disabled={googleBusy || !network.online}>
                  Sign In
                </Button>
                {network.note}
              </Stack>
            </form>
            <Text size="sm" ta="center">
              New here?{' '}
              <AnchorLink to="/signUp" fw={600}>
                sign up
              </AnchorLink>
            </Text>
          </Stack>
        </Paper>
      </Grid.Col>
    </Grid>
  )
}
