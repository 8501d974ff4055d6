import { Group, List, Loader, Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import type { SubmitterRecord } from '../../../../contract/submissions'
import { SUBMISSION_STATES, type SubmissionState } from '../../../../contract/submission-states'
import { AnchorLink } from '../../../components/router-links'
import { errorMessage } from '../../../lib/error-message'
import { submitterQueryOptions } from '../api'
import { CardSection } from './card-section'
import { StateBadge } from './state-badge'

const COUNTED: Record<SubmissionState, string> = {
  waiting: 'waiting',
  changes: 'with changes asked',
  refused: 'refused',
  published: 'published',
}

/**
 * A review card's "Submitter" section: closed at first; opening it loads (once per card) the submitter's
 * submissions by state, their latest others and the open reports against their stickers.
 */
export function SubmitterHistory({ submissionId, name }: { submissionId: string; name: string }) {
  return (
    <CardSection show={`${name}’s other submissions and reports`} hide={`Hide ${name}’s history`} label={`${name}’s history`}>
      <SubmitterPanel submissionId={submissionId} />
    </CardSection>
  )
}

function SubmitterPanel({ submissionId }: { submissionId: string }) {
  const query = useQuery(submitterQueryOptions(submissionId))
  if (query.isPending) return <Loader size="xs" aria-label="Loading the submitter’s history" />
  if (query.isError) return <Text size="sm" c="red">{`Could not load the submitter’s history: ${errorMessage(query.error)}`}</Text>
  return <SubmitterFacts record={query.data} />
}

function SubmitterFacts({ record }: { record: SubmitterRecord }) {
  const counted = SUBMISSION_STATES.filter((state) => record.counts[state] > 0).map((state) => `${record.counts[state]} ${COUNTED[state]}`)
  const { open, stickers } = record.reports
  return (
    <Stack gap={4}>
      <Text size="sm">Submissions: {counted.length > 0 ? counted.join(' · ') : 'none'}</Text>
      <Text size="sm" c={open > 0 ? 'red.8' : undefined} fw={open > 0 ? 600 : undefined}>
        {open === 0
          ? 'No open reports against their stickers'
          : `${open} open ${open === 1 ? 'report' : 'reports'} against ${stickers === 1 ? 'one' : stickers} of their stickers`}
      </Text>
      {record.recent.length > 0 && (
        <List size="sm" spacing={4} listStyleType="none" aria-label="Their latest other submissions">
          {record.recent.map((other) => (
            <List.Item key={other.id}>
              <Group gap="xs">
                {other.wumpusId ? (
                  <AnchorLink size="sm" to="/wumpus/$id" params={{ id: other.wumpusId }}>
                    {other.name}
                  </AnchorLink>
                ) : (
                  <Text size="sm" span>
                    {other.name}
                  </Text>
                )}
                <StateBadge state={other.state} />
                <Text size="xs" c="dimmed" span>
                  {new Date(other.createdAt).toLocaleDateString()}
                </Text>
              </Group>
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  )
}
