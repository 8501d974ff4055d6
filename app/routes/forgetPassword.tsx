import { createFileRoute } from '@tanstack/react-router'
import { ForgetPasswordPage } from '../features/auth/components/forget-password-page'

export const Route = createFileRoute('/forgetPassword')({
  component: ForgetPasswordPage,
})
