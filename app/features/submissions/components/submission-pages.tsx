import { Card, Stack, Text, Title } from '@mantine/core'
import type { Submission } from '../../../../contract/submissions'
import { VerifyEmailFirst } from '../../../components/verify-email-first'
import { usePageTitle } from '../../../lib/page-title'
import { StateBadge } from './state-badge'
import { SubmissionForm } from './submission-form'

interface SubmitPageProps {
  user: { email: string; name: string; emailVerified: boolean }
  onSent: () => void
}

/** Dashboard → My submissions → Submit a sticker. */
export function SubmitStickerPage({ user, onSent }: SubmitPageProps) {
  usePageTitle('Submit a sticker')
  return (
    <Stack gap="lg" maw={760}>
      <Title order={1}>Submit a sticker</Title>
      <Text>
        Share an animated sticker with everyone. An admin looks at it first; once published, it joins the gallery with your name on it, and
        every chat app&apos;s file is made from it.
      </Text>
      {user.emailVerified ? (
        <Card withBorder shadow="sm" padding="lg" component="section" aria-label="New submission">
          <SubmissionForm user={user} onSent={onSent} />
        </Card>
      ) : (
        <VerifyEmailFirst>Submitting stickers needs a verified email address.</VerifyEmailFirst>
      )}
    </Stack>
  )
}

/** Dashboard → My submissions → Edit: one waiting for review, or asked to change. */
export function EditSubmissionPage({ user, submission, onSent }: SubmitPageProps & { submission: Submission }) {
  usePageTitle(`Edit ${submission.name}`)
  return (
    <Stack gap="lg" maw={760}>
      <Title order={1}>Edit {submission.name}</Title>
      <StateBadge state={submission.state} />
      {submission.note && (
        <Text>
          <Text span fw={600}>
            From the reviewer:{' '}
          </Text>
          {submission.note}
        </Text>
      )}
      <Card withBorder shadow="sm" padding="lg" component="section" aria-label={`Edit ${submission.name}`}>
        <SubmissionForm user={user} submission={submission} onSent={onSent} />
      </Card>
    </Stack>
  )
}
