import { Button, Text, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { notifications } from '@mantine/notifications'
import { AnchorLink } from '../../../components/router-links'
import { sendPasswordReset } from '../../../lib/firebase'
import { usePageTitle } from '../../../lib/page-title'
import { useNeedsNetwork } from '../../../components/needs-network'
import { authErrorMessage } from '../auth-errors'
import { AuthCard } from './auth-card'

export function ForgetPasswordPage() {
  usePageTitle('Forgot password')
  const form = useForm({ initialValues: { email: '' } })
  const network = useNeedsNetwork()

  async function reset({ email }: { email: string }) {
    try {
      await sendPasswordReset(email.trim())
      notifications.show({ color: 'green', message: 'Email sent' })
    } catch (error) {
      notifications.show({ color: 'red', message: authErrorMessage(error) })
    }
  }

  return (
    <AuthCard title="Forgot password?">
      <Text size="sm" ta="center">
        Enter the email address of your account and we will send you a link to choose a new password.
      </Text>
      <form onSubmit={form.onSubmit(reset)}>
        <TextInput label="Email Address" type="email" required autoComplete="email" mb="md" {...form.getInputProps('email')} />
        <Button type="submit" fullWidth loading={form.submitting} disabled={!network.online}>
          Reset password
        </Button>
        {network.note}
      </form>
      <Text size="sm" ta="center">
        Remembered it? <AnchorLink to="/signIn">Back to sign in</AnchorLink>
      </Text>
    </AuthCard>
  )
}
