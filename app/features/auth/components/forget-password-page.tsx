import { Button, Text, TextInput } from '@mantine/core'
import { showToast } from '../../../lib/toast'
import { useState } from 'react'
import { passwordResetFormSchema, type PasswordResetForm } from '../../../../contract/user'
import { AnchorLink } from '../../../components/router-links'
import { sendPasswordReset } from '../../../lib/firebase'
import { usePageTitle } from '../../../lib/page-title'
import { useNeedsNetwork } from '../../../components/needs-network'
import { useSchemaForm } from '../../../lib/use-schema-form'
import { authErrorMessage } from '../auth-errors'
import { AuthCard } from './auth-card'

/** Firebase's answer for an address without an account: it is said the same as a sent email, so no one learns who has one. */
const NO_SUCH_ACCOUNT = new Set(['auth/user-not-found', 'auth/invalid-credential'])

export function ForgetPasswordPage() {
  usePageTitle('Forgot password')
  // Checked by the app like every other form (no browser bubble), on submit and again on each change.
  const { form, onSubmit } = useSchemaForm<PasswordResetForm>(passwordResetFormSchema, { email: '' })
  const network = useNeedsNetwork()
  const [sentTo, setSentTo] = useState<string | null>(null)

  async function reset({ email }: PasswordResetForm) {
    const address = email.trim()
    try {
      await sendPasswordReset(address)
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code
      if (typeof code !== 'string' || !NO_SUCH_ACCOUNT.has(code)) {
        showToast({ color: 'red', message: authErrorMessage(error) })
        return
      }
    }
    showToast({ color: 'green', message: 'Email sent' })
    setSentTo(address)
  }

  return (
    <AuthCard title="Forgot password?">
      <Text size="sm" ta="center">
        Enter the email address of your account and we will send you a link to choose a new password.
      </Text>
      <form onSubmit={onSubmit(reset)} noValidate>
        <TextInput label="Email Address" type="email" autoComplete="email" mb="md" {...form.getInputProps('email')} />
        <Button type="submit" fullWidth loading={form.submitting} disabled={!network.online}>
          Reset password
        </Button>
        {network.note}
      </form>
      {sentTo && (
        <Text size="sm" ta="center" role="status">
          If an account uses {sentTo}, a link to choose a new password is on its way. Check your inbox, and your spam folder.
        </Text>
      )}
      <Text size="sm" ta="center">
        Remembered it? <AnchorLink to="/signIn">Back to sign in</AnchorLink>
      </Text>
    </AuthCard>
  )
}
