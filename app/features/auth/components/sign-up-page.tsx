import { Button, Divider, FileInput, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core'
import { showToast } from '../../../lib/toast'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { z } from 'zod'
import { signUpFormSchema } from '../../../../contract/user'
import { AnchorLink } from '../../../components/router-links'
import { sendVerificationEmail, signInWithGoogle, signUpWithEmail, updateAccountProfile } from '../../../lib/firebase'
import { usePageTitle } from '../../../lib/page-title'
import { useSessionStore } from '../../../lib/session-provider'
import { useNeedsNetwork } from '../../../components/needs-network'
import { PHOTO_ACCEPT, photoProblem, uploadSignUpPhoto } from '../sign-up-photo'
import { authErrorMessage } from '../auth-errors'
import { useSchemaForm } from '../../../lib/use-schema-form'
import { AuthErrorCard } from './auth-error-card'
import { GoogleButton } from './google-button'

const signUpPageSchema = signUpFormSchema.extend({
  photo: z
    .custom<File | null>((value) => value === null || value instanceof File)
    .superRefine((file, ctx) => {
      const problem = file && photoProblem(file)
      if (problem) ctx.addIssue({ code: 'custom', message: problem })
    }),
})
type SignUpValues = z.infer<typeof signUpPageSchema>

export function SignUpPage() {
  usePageTitle('Sign up')
  const navigate = useNavigate()
  const session = useSessionStore()
  const network = useNeedsNetwork()
  const [error, setError] = useState<string | null>(null)
  const [googleBusy, setGoogleBusy] = useState(false)
  const { form, onSubmit } = useSchemaForm<SignUpValues>(signUpPageSchema, { name: '', email: '', password: '', photo: null })

  async function signUp({ name, email, password, photo }: SignUpValues) {
    setError(null)
    // Name and photo go on the Firebase account; the server copies them into the profile at the
    // first sign-in with the email verified (until then it keeps only a bare record for the email).
    try {
      const account = await signUpWithEmail(email, password)
      try {
        await updateAccountProfile({ displayName: name })
      } catch (cause) {
        showToast({
          color: 'red',
          message: `Your name could not be saved: ${authErrorMessage(cause)} You can set it in your profile.`,
        })
      }
      await session.exchange(account)
    } catch (cause) {
      setError(authErrorMessage(cause))
      return
    }
    // The account exists now: a failing step below is reported, and the user still gets in.
    if (photo) {
      try {
        const photoPath = await uploadSignUpPhoto(photo)
        await updateAccountProfile({ photoURL: new URL(photoPath, window.location.origin).href })
      } catch (cause) {
        showToast({
          color: 'red',
          message: `Your photo could not be saved: ${authErrorMessage(cause)} You can add one in your profile.`,
        })
      }
    }
    try {
      await sendVerificationEmail()
    } catch (cause) {
      showToast({ color: 'red', message: authErrorMessage(cause) })
    }
    showToast({ color: 'green', message: 'Sign up success' })
    await navigate({ to: '/emailVerification' })
  }

  async function withGoogle() {
    setError(null)
    setGoogleBusy(true)
    try {
      await session.exchange(await signInWithGoogle())
      await navigate({ to: '/', replace: true })
    } catch (cause) {
      setError(authErrorMessage(cause))
    } finally {
      setGoogleBusy(false)
    }
  }

  return (
    <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="md" maw={480} mx="auto" my={{ base: 'xs', md: 'xl' }}>
      <Stack gap="md">
        <Title order={1} ta="center">
          Create your account
        </Title>
        <GoogleButton onClick={() => void withGoogle()} loading={googleBusy} disabled={form.submitting || !network.online}>
          Sign up with Google
        </GoogleButton>
        <Divider label="or with your email" labelPosition="center" />
        <form noValidate onSubmit={onSubmit(signUp)}>
          <Stack gap="sm">
            <TextInput label="Name*" autoComplete="name" {...form.getInputProps('name')} />
            <TextInput label="Email Address*" type="email" autoComplete="email" {...form.getInputProps('email')} />
            <PasswordInput label="Password*" autoComplete="new-password" {...form.getInputProps('password')} />
            <FileInput
              label="Photo"
              description="Optional: png, gif, jpeg or jpg"
              placeholder="Choose an image"
              accept={PHOTO_ACCEPT}
              clearable
              {...form.getInputProps('photo')}
            />
            <AuthErrorCard message={error} />
            <Button type="submit" fullWidth loading={form.submitting} disabled={googleBusy || !network.online}>
              Sign Up
            </Button>
            {network.note}
          </Stack>
        </form>
        <Text size="sm" ta="center">
          Already have an account?{' '}
          <AnchorLink to="/signIn" fw={600}>
            Sign in
          </AnchorLink>
        </Text>
      </Stack>
    </Paper>
  )
}
