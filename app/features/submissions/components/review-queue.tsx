import { Anchor, Badge, Button, Card, Group, Radio, Stack, Text, Textarea, Title } from '@mantine/core'
import { useSuspenseInfiniteQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { LICENCE_LABEL } from '../../../../contract/licence'
import { type Submission, type SubmissionDecision } from '../../../../contract/submissions'
import { SUBMISSION_STATES, type SubmissionState } from '../../../../contract/submission-states'
import { MorePages } from '../../../components/more-pages'
import { useNeedsNetwork } from '../../../components/needs-network'
import { ButtonLink } from '../../../components/router-links'
import { errorMessage, fieldErrors } from '../../../lib/error-message'
import { usePageTitle } from '../../../lib/page-title'
import { showToast } from '../../../lib/toast'
import { usePagedList } from '../../../lib/use-paged-list'
import { submissionQueueQueryOptions, useDecideSubmission } from '../api'
import { StateBadge } from './state-badge'
import { StickerPreview } from './sticker-preview'
import { SubmissionFitSection } from './submission-fit'
import { SubmitterHistory } from './submitter-history'
import classes from './submissions.module.css'

const STATE_TABS: Record<SubmissionState, string> = {
  waiting: 'Waiting',
  changes: 'Changes asked',
  refused: 'Refused',
  published: 'Published',
}

interface ReviewQueueProps {
  state: SubmissionState
  onStateChange: (state: SubmissionState) => void
}

/** Dashboard → Review (admins): submissions oldest first; each published, sent back with a note, or refused with a reason. */
export function ReviewQueue({ state, onStateChange }: ReviewQueueProps) {
  usePageTitle('Review submissions')
  const { items, total, morePages } = usePagedList(useSuspenseInfiniteQuery(submissionQueueQueryOptions(state)))
  return (
    <Stack gap="lg">
      <Title order={1}>Review submissions</Title>
      <Radio.Group label="Show" value={state} onChange={(value) => onStateChange(value)}>
        <Group gap="md" mt={6}>
          {SUBMISSION_STATES.map((value) => (
            <Radio key={value} value={value} label={STATE_TABS[value]} />
          ))}
        </Group>
      </Radio.Group>
      <Text size="sm" c="dimmed" role="status">
        {total === 0 ? 'Nothing here.' : `${total} ${total === 1 ? 'submission' : 'submissions'}, oldest first.`}
      </Text>
      <Stack component="ul" gap="md" p={0} m={0} aria-label="Submissions">
        {items.map((submission) => (
          <ReviewItem key={submission.id} submission={submission} />
        ))}
      </Stack>
      <MorePages {...morePages} noun="submissions" />
    </Stack>
  )
}

const DECIDED: Record<SubmissionDecision, string> = {
  publish: 'is published',
  changes: 'went back to its maker with your note',
  refuse: 'is refused',
}

function ReviewItem({ submission }: { submission: Submission }) {
  const decide = useDecideSubmission()
  const network = useNeedsNetwork()
  const [note, setNote] = useState('')
  const [problem, setProblem] = useState<string | undefined>()
  const [pending, setPending] = useState<SubmissionDecision | null>(null)
  const open = submission.state === 'waiting' || submission.state === 'changes'

  const send = async (decision: SubmissionDecision) => {
    if (decision !== 'publish' && note.trim() === '') {
      setProblem('Say what to change, or why it is refused')
      return
    }
    setProblem(undefined)
    setPending(decision)
    try {
      await decide.mutateAsync({ id: submission.id, decision, note: note.trim() })
      showToast({ color: 'green', message: `${submission.name} ${DECIDED[decision]}` })
    } catch (error) {
      setProblem(fieldErrors(error).note)
      showToast({ color: 'red', title: 'Could not record the decision', message: errorMessage(error) })
    } finally {
      setPending(null)
    }
  }

  return (
    <Card component="li" withBorder padding="md" className={classes.item} aria-label={submission.name}>
      <Group align="flex-start" gap="md">
        <StickerPreview url={submission.lottie} label={submission.name} />
        <Stack gap={6} className={classes.text} style={{ flex: '1 1 260px' }}>
          <Group gap="xs">
            <Title order={2} size="h4">
              {submission.name}
            </Title>
            <StateBadge state={submission.state} />
            {submission.sensitive && <Badge variant="outline">Sensitive</Badge>}
          </Group>
          <Text size="sm">{submission.description}</Text>
          <Text size="sm">
            {submission.emoji.map((emoji) => emoji.char).join(' ')}
            {submission.tags.length > 0 && ` · ${submission.tags.join(', ')}`}
          </Text>
          <Text size="sm" c="dimmed">
            From {submission.u_name} ({submission.u_email}), {new Date(submission.createdAt).toLocaleDateString()}
          </Text>
          <SubmitterHistory submissionId={submission.id} name={submission.u_name} />
          {submission.lottie && <SubmissionFitSection submissionId={submission.id} />}
          <Text size="sm">
            {submission.original ? 'Made by the submitter' : 'Made by someone else'}
            {submission.credit && `, credited as ${submission.credit}`} · {LICENCE_LABEL[submission.licence]}
          </Text>
          {submission.source && (
            <Anchor href={submission.source} size="sm" target="_blank" rel="noopener noreferrer">
              Source: {submission.source}
            </Anchor>
          )}
          {submission.note && (
            <Text size="sm">
              <Text span fw={600}>
                Last note:{' '}
              </Text>
              {submission.note}
            </Text>
          )}
          {submission.wumpusId && (
            <ButtonLink
              size="xs"
              variant="default"
              to="/wumpus/$id"
              params={{ id: submission.wumpusId }}
              style={{ alignSelf: 'flex-start' }}
            >
              View in the gallery
            </ButtonLink>
          )}
          {open && (
            <Stack gap="xs" mt="xs">
              <Textarea
                label="Note to the maker"
                description="Needed to ask for changes or to refuse: say what to change, or why"
                rows={2}
                value={note}
                onChange={(event) => setNote(event.currentTarget.value)}
                error={problem}
              />
              <Group gap="xs">
                <Button
                  size="sm"
                  color="green"
                  loading={pending === 'publish'}
                  disabled={!network.online || pending !== null}
                  onClick={() => void send('publish')}
                >
                  Publish
                </Button>
                <Button
                  size="sm"
                  variant="default"
                  loading={pending === 'changes'}
                  disabled={!network.online || pending !== null}
                  onClick={() => void send('changes')}
                >
                  Ask for changes
                </Button>
                <Button
                  size="sm"
                  variant="light"
                  color="red"
                  loading={pending === 'refuse'}
                  disabled={!network.online || pending !== null}
                  onClick={() => void send('refuse')}
                >
                  Refuse
                </Button>
              </Group>
              {network.note}
            </Stack>
          )}
        </Stack>
      </Group>
    </Card>
  )
}
