import { Badge, Button, Card, Group, Radio, Stack, Text, Textarea, Title } from '@mantine/core'
import { useSuspenseInfiniteQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { REPORT_REASONS, REPORT_STATES, type ReportGroup, type ReportState } from '../../../../contract/reports'
import { MorePages } from '../../../components/more-pages'
import { useNeedsNetwork } from '../../../components/needs-network'
import { AnchorLink } from '../../../components/router-links'
import { errorMessage } from '../../../lib/error-message'
import { usePageTitle } from '../../../lib/page-title'
import { showToast } from '../../../lib/toast'
import { usePagedList } from '../../../lib/use-paged-list'
import { reportGroupsQueryOptions, useDecideReports } from '../api'

const STATE_LABEL: Record<ReportState, string> = { open: 'Open', decided: 'Decided' }

interface ReportsPageProps {
  state: ReportState
  onStateChange: (state: ReportState) => void
}

/** Dashboard → Reports (admins): what people reported, grouped by sticker or pack, the most reported first. */
export function ReportsPage({ state, onStateChange }: ReportsPageProps) {
  usePageTitle('Reports')
  const { items, total, morePages } = usePagedList(useSuspenseInfiniteQuery(reportGroupsQueryOptions(state)))
  return (
    <Stack gap="lg">
      <Title order={1}>Reports</Title>
      <Radio.Group label="Show" value={state} onChange={(value) => onStateChange(value)}>
        <Group gap="md" mt={6}>
          {REPORT_STATES.map((value) => (
            <Radio key={value} value={value} label={STATE_LABEL[value]} />
          ))}
        </Group>
      </Radio.Group>
      <Text size="sm" c="dimmed" role="status">
        {total === 0
          ? state === 'open'
            ? 'No open reports.'
            : 'No decided reports yet.'
          : `${total} ${total === 1 ? 'sticker or pack' : 'stickers and packs'}, the most reported first.`}
      </Text>
      <Stack component="ul" gap="md" p={0} m={0} aria-label="Reports">
        {items.map((group) => (
          <ReportGroupItem key={`${group.kind}-${group.id}`} group={group} open={state === 'open'} />
        ))}
      </Stack>
      <MorePages {...morePages} noun="reports" />
    </Stack>
  )
}

function ReportGroupItem({ group, open }: { group: ReportGroup; open: boolean }) {
  const decide = useDecideReports()
  const network = useNeedsNetwork()
  const [note, setNote] = useState('')
  const name = group.name || (group.kind === 'pack' ? 'A deleted pack' : 'A deleted sticker')
  const target = group.kind === 'pack' ? { packId: group.id } : { wumpusId: group.id }

  const dismiss = async () => {
    try {
      const { decided } = await decide.mutateAsync({ ...target, decision: 'dismiss', note: note.trim() })
      showToast({ color: 'green', message: `${decided} ${decided === 1 ? 'report' : 'reports'} on ${name} dismissed` })
    } catch (error) {
      showToast({ color: 'red', title: 'Could not dismiss the reports', message: errorMessage(error) })
    }
  }

  return (
    <Card component="li" withBorder padding="md" style={{ listStyle: 'none' }} aria-label={name}>
      <Stack gap="xs">
        <Group gap="xs">
          <Title order={2} size="h4">
            {group.name === '' ? (
              name
            ) : group.kind === 'pack' ? (
              <AnchorLink to="/packs/$id" params={{ id: group.id }}>
                {name}
              </AnchorLink>
            ) : (
              <AnchorLink to="/wumpus/$id" params={{ id: group.id }}>
                {name}
              </AnchorLink>
            )}
          </Title>
          <Badge variant="light">{group.kind === 'pack' ? 'Pack' : 'Sticker'}</Badge>
          <Badge variant="light" color={open ? 'red' : 'gray'}>
            {group.count} {group.count === 1 ? 'report' : 'reports'}
          </Badge>
        </Group>
        <Stack component="ul" gap={6} p={0} m={0} aria-label={`Reports on ${name}`}>
          {group.reports.map((report) => (
            <Text component="li" key={report.id} size="sm" style={{ listStyle: 'none', overflowWrap: 'anywhere' }}>
              <Text span fw={600}>
                {REPORT_REASONS[report.reason]}
              </Text>
              {report.note && `: ${report.note}`}
              <Text span c="dimmed">
                {' '}
                ({report.reporter ?? 'a visitor'}, {new Date(report.createdAt).toLocaleDateString()}
                {report.decision && `; dismissed${report.decisionNote ? `: ${report.decisionNote}` : ''}`})
              </Text>
            </Text>
          ))}
        </Stack>
        {open && (
          <Stack gap="xs">
            <Textarea
              label="Note (optional)"
              description="Why they are dismissed, for the activity log"
              rows={2}
              value={note}
              onChange={(event) => setNote(event.currentTarget.value)}
            />
            <Group gap="xs">
              <Button size="sm" variant="default" loading={decide.isPending} disabled={!network.online} onClick={() => void dismiss()}>
                Dismiss the reports
              </Button>
            </Group>
            {network.note}
          </Stack>
        )}
      </Stack>
    </Card>
  )
}
