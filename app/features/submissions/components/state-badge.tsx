import { Badge } from '@mantine/core'
import type { SubmissionState } from '../../../../contract/submission-states'

const STATE: Record<SubmissionState, { label: string; color: string }> = {
  waiting: { label: 'Waiting for review', color: 'blue' },
  changes: { label: 'Changes asked', color: 'yellow' },
  refused: { label: 'Refused', color: 'red' },
  published: { label: 'Published', color: 'green' },
}

/** Where a submission stands, in words. */
export function StateBadge({ state }: { state: SubmissionState }) {
  return (
    <Badge color={STATE[state].color} variant="light">
      {STATE[state].label}
    </Badge>
  )
}
