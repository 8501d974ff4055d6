import { Badge, Button, Card, Group, Radio, Stack, Text, Textarea, Title } from '@mantine/core'
import { useSuspenseInfiniteQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { REPORT_REASONS, REPORT_STATES, type ReportDecision, type ReportGroup, type ReportState } from '../../../../contract/reports'
import { ConfirmDeleteModal } from '../../../components/confirm-delete'
import { MorePages } from '../../../components/more-pages'
import { useNeedsNetwork } from '../../../components/needs-network'
import { AnchorLink } from '../../../components/router-links'
import { errorMessage } from '../../../lib/error-message'
import { usePageTitle } from '../../../lib/page-title'
import { showToast } from '../../../lib/toast'
import { usePagedList } from '../../../lib/use-paged-list'
import { reportGroupsQueryOptions, useDecideReports } from '../api'

const STATE_LABEL: Record<ReportState, string> = { open: 'Open', decided: 'Decided' }

/** How a decided report reads, and the toast once decided. */
const DECIDED: Record<ReportDecision, { word: string; toast: (count: string, name: string) => string; failed: string }> = {
  dismiss: { word: 'dismissed', toast: (count, name) => `${count} on ${name} dismissed`, failed: 'Could not dismiss the reports' },
  hide: {
    word: 'hidden',
    toast: (_, name) => `${name} is hidden: restore or delete it when you have looked into it`,
    failed: 'Could not hide it',
  },
  restore: { word: 'restored', toast: (count, name) => `${name} is back in the gallery; ${count} closed`, failed: 'Could not restore it' },
  delete: { word: 'deleted', toast: (count, name) => `${name} is deleted; ${count} closed`, failed: 'Could not delete it' },
}

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
  const [confirmingDelete, setConfirmingDelete] = useState(false)
  const name = group.name || (group.kind === 'pack' ? 'A deleted pack' : 'A deleted sticker')
  const target = group.kind === 'pack' ? { packId: group.id } : { wumpusId: group.id }
  // Hide, restore and delete: a sticker that is still there. A hidden one waits for restore or delete.
  const sticker = group.kind === 'wumpus' && group.name !== ''
  const hidden = group.hidden === true

  const run = async (decision: ReportDecision) => {
    try {
      const { decided } = await decide.mutateAsync({ ...target, decision, note: note.trim() })
      setConfirmingDelete(false)
      showToast({ color: 'green', message: DECIDED[decision].toast(`${decided} ${decided === 1 ? 'report' : 'reports'}`, name) })
    } catch (error) {
      setConfirmingDelete(false)
      showToast({ color: 'red', title: DECIDED[decision].failed, message: errorMessage(error) })
    }
  }
  const pending = (decision: ReportDecision) => decide.isPending && decide.variables?.decision === decision

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
          {hidden && (
            <Badge variant="filled" color="orange">
              Hidden
            </Badge>
          )}
        </Group>
        {hidden && (
          <Text size="sm" c="dimmed">
            Only admins see it now. Restore it, or delete it for good.
          </Text>
        )}
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
                {report.decision && `; ${DECIDED[report.decision].word}${report.decisionNote ? `: ${report.decisionNote}` : ''}`})
              </Text>
            </Text>
          ))}
        </Stack>
        {open && (
          <Stack gap="xs">
            <Textarea
              label="Note (optional)"
              description="Why, for the activity log"
              rows={2}
              value={note}
              onChange={(event) => setNote(event.currentTarget.value)}
            />
            <Group gap="xs">
              {sticker && !hidden && (
                <Button
                  size="sm"
                  color="orange"
                  loading={pending('hide')}
                  disabled={!network.online || decide.isPending}
                  onClick={() => void run('hide')}
                >
                  Hide
                </Button>
              )}
              {sticker && hidden && (
                <Button
                  size="sm"
                  color="teal"
                  loading={pending('restore')}
                  disabled={!network.online || decide.isPending}
                  onClick={() => void run('restore')}
                >
                  Restore
                </Button>
              )}
              {sticker && (
                <Button
                  size="sm"
                  color="red"
                  variant="light"
                  disabled={!network.online || decide.isPending}
                  onClick={() => setConfirmingDelete(true)}
                >
                  Delete
                </Button>
              )}
              {!hidden && (
                <Button
                  size="sm"
                  variant="default"
                  loading={pending('dismiss')}
                  disabled={!network.online || decide.isPending}
                  onClick={() => void run('dismiss')}
                >
                  Dismiss the reports
                </Button>
              )}
            </Group>
            {network.note}
            <ConfirmDeleteModal
              name={confirmingDelete ? name : null}
              consequence="It is deleted for good with its files and its remixes, taken out of every pack and favourite, and its reports are closed."
              pending={pending('delete')}
              online={network.online}
              onCancel={() => setConfirmingDelete(false)}
              onConfirm={() => void run('delete')}
            />
          </Stack>
        )}
      </Stack>
    </Card>
  )
}
