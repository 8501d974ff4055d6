import { List, Loader, Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import type { SubmissionFit } from '../../../../contract/submissions'
import { errorMessage } from '../../../lib/error-message'
import { submissionFitQueryOptions } from '../api'
import { CardSection } from './card-section'

const VERDICT = { true: 'fits', false: 'does not fit', null: 'checked on publish' } as const

/**
 * A review card's "Files it would make": closed at first; opening it asks the server (once per card) how each
 * chat app's file fares as far as it can be judged without rendering.
 */
export function SubmissionFitSection({ submissionId }: { submissionId: string }) {
  return (
    <CardSection show="Files it would make" hide="Hide the files it would make" label="Files it would make">
      <FitPanel submissionId={submissionId} />
    </CardSection>
  )
}

function FitPanel({ submissionId }: { submissionId: string }) {
  const query = useQuery(submissionFitQueryOptions(submissionId))
  if (query.isPending) return <Loader size="xs" aria-label="Judging the files" />
  if (query.isError) return <Text size="sm" c="red">{`Could not judge the files: ${errorMessage(query.error)}`}</Text>
  return <FitList fits={query.data} />
}

function FitList({ fits }: { fits: SubmissionFit }) {
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed">
        Judged from the Lottie without rendering: Telegram’s files are made and checked; the other apps by length only, their sizes when
        their files are made on publish.
      </Text>
      <List size="sm" spacing={2} listStyleType="none" aria-label="Each app’s file">
        {fits.map((fit) => (
          <List.Item key={fit.platform}>
            <Text size="sm" span fw={600}>
              {fit.label}
            </Text>
            <Text size="sm" span c={fit.fits === false ? 'red.8' : undefined}>
              {`: ${VERDICT[String(fit.fits) as keyof typeof VERDICT]}`}
              {fit.bytes !== undefined && ` (${(fit.bytes / 1024).toFixed(1)} KB)`}
              {fit.fits === false && fit.notes.length > 0 && ` (${fit.notes.join('; ')})`}
            </Text>
          </List.Item>
        ))}
      </List>
    </Stack>
  )
}
