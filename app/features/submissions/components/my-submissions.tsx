import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core'
import { useSuspenseInfiniteQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { type Submission } from '../../../../contract/submissions'
import { SUBMISSION_EDITABLE_STATES } from '../../../../contract/submission-states'
import { ConfirmModal } from '../../../components/confirm-modal'
import { MorePages } from '../../../components/more-pages'
import { useNeedsNetwork } from '../../../components/needs-network'
import { ButtonLink } from '../../../components/router-links'
import { VerifyEmailFirst } from '../../../components/verify-email-first'
import { errorMessage } from '../../../lib/error-message'
import { usePageTitle } from '../../../lib/page-title'
import { showToast } from '../../../lib/toast'
import { usePagedList } from '../../../lib/use-paged-list'
import { mySubmissionsQueryOptions, useWithdrawSubmission } from '../api'
import { StateBadge } from './state-badge'
import { StickerPreview } from './sticker-preview'
import classes from './submissions.module.css'

/** Dashboard → My submissions: the stickers one sent for review, newest first, each with where it stands. */
export function MySubmissions({ emailVerified }: { emailVerified: boolean }) {
  usePageTitle('My submissions')
  const { items, morePages } = usePagedList(useSuspenseInfiniteQuery(mySubmissionsQueryOptions()))
  const network = useNeedsNetwork()
  const withdraw = useWithdrawSubmission()
  const [toWithdraw, setToWithdraw] = useState<Submission | null>(null)

  const confirmWithdraw = async () => {
    if (!toWithdraw) return
    try {
      await withdraw.mutateAsync(toWithdraw.id)
      showToast({ color: 'green', message: `${toWithdraw.name} is withdrawn` })
      setToWithdraw(null)
    } catch (error) {
      showToast({ color: 'red', title: 'Could not withdraw it', message: errorMessage(error) })
    }
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1}>My submissions</Title>
        {emailVerified && network.online ? (
          <ButtonLink to="/dashboard/submissions/new">Submit a sticker</ButtonLink>
        ) : (
          <Button disabled>Submit a sticker</Button>
        )}
      </Group>
      {!emailVerified && <VerifyEmailFirst>Submitting stickers needs a verified email address.</VerifyEmailFirst>}
      {network.note}
      {items.length === 0 ? (
        <Text>
          Nothing sent yet. Made a sticker of your own? Submit it: once an admin has looked at it, it joins the gallery with your name on
          it.
        </Text>
      ) : (
        <Stack component="ul" gap="sm" p={0} m={0} aria-label="My submissions">
          {items.map((submission) => (
            <Card component="li" key={submission.id} withBorder padding="sm" className={classes.item} aria-label={submission.name}>
              <Group align="flex-start" wrap="nowrap" gap="md">
                <div className={classes.itemPreview}>
                  <StickerPreview url={submission.lottie} label={submission.name} />
                </div>
                <Stack gap={6} className={classes.text} style={{ flex: 1 }}>
                  <Group gap="xs">
                    <Title order={2} size="h4">
                      {submission.name}
                    </Title>
                    <StateBadge state={submission.state} />
                    {submission.sensitive && <Badge variant="outline">Sensitive</Badge>}
                  </Group>
                  <Text size="sm" c="dimmed">
                    Sent {new Date(submission.createdAt).toLocaleDateString()}
                  </Text>
                  {submission.note && (
                    <Text size="sm">
                      <Text span fw={600}>
                        {submission.state === 'refused' ? 'Why it was refused: ' : 'From the reviewer: '}
                      </Text>
                      {submission.note}
                    </Text>
                  )}
                  <Group gap="xs">
                    {SUBMISSION_EDITABLE_STATES.includes(submission.state) && (
                      <>
                        <ButtonLink size="xs" variant="default" to="/dashboard/submissions/$id" params={{ id: submission.id }}>
                          {submission.state === 'changes' ? 'Edit and send again' : 'Edit'}
                        </ButtonLink>
                        <Button size="xs" variant="subtle" color="red" disabled={!network.online} onClick={() => setToWithdraw(submission)}>
                          Withdraw
                        </Button>
                      </>
                    )}
                    {submission.wumpusId && (
                      <ButtonLink size="xs" variant="default" to="/wumpus/$id" params={{ id: submission.wumpusId }}>
                        View in the gallery
                      </ButtonLink>
                    )}
                  </Group>
                </Stack>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      <MorePages {...morePages} noun="submissions" />
      <ConfirmModal
        title={toWithdraw ? `Withdraw ${toWithdraw.name}?` : null}
        confirmLabel="Withdraw"
        color="red"
        pending={withdraw.isPending}
        online={network.online}
        onCancel={() => setToWithdraw(null)}
        onConfirm={() => void confirmWithdraw()}
      >
        It leaves the review queue and is deleted. You can submit it again later.
      </ConfirmModal>
    </Stack>
  )
}
