import { Anchor, Badge, Stack, Table, Text, Title } from '@mantine/core'
import { useSuspenseInfiniteQuery } from '@tanstack/react-query'
import { FORMAT_LABEL } from '../../../../contract/format-labels'
import type { ActivityEntry, AuditActionName } from '../../../../contract/audit'
import { CONFIG_ACTOR } from '../../../../contract/audit'
import { MorePages } from '../../../components/more-pages'
import { usePageTitle } from '../../../lib/page-title'
import { profilePath } from '../../../lib/paths'
import { usePagedList } from '../../../lib/use-paged-list'
import { activityQueryOptions } from '../api'
import classes from '../../../components/admin-table.module.css'
import activity from './activity-log.module.css'
import { EmailText } from './email-text'

const ACTION: Record<AuditActionName, { label: string; color: string }> = {
  'wumpus.publish': { label: 'Published', color: 'green' },
  'wumpus.edit': { label: 'Edited', color: 'blue' },
  'wumpus.delete': { label: 'Deleted', color: 'red' },
  'user.make-admin': { label: 'Made admin', color: 'grape' },
  'user.end-sessions': { label: 'Signed out everywhere', color: 'orange' },
  'pack.create': { label: 'Made pack', color: 'green' },
  'pack.edit': { label: 'Edited pack', color: 'blue' },
  'pack.delete': { label: 'Deleted pack', color: 'red' },
  'submission.publish': { label: 'Published submission', color: 'green' },
  'submission.changes': { label: 'Asked for changes', color: 'yellow' },
  'submission.refuse': { label: 'Refused submission', color: 'red' },
  'report.dismiss': { label: 'Dismissed reports', color: 'gray' },
  'report.hide': { label: 'Hid reported sticker', color: 'orange' },
  'report.restore': { label: 'Restored reported sticker', color: 'teal' },
  'report.delete': { label: 'Deleted reported sticker', color: 'red' },
}

const FIELD: Record<string, string> = {
  name: 'Name',
  description: 'Description',
  ...FORMAT_LABEL,
  role: 'Role',
  sessions: 'Open sessions',
  signIns: 'Sign-ins',
  stickers: 'Stickers',
  cover: 'Cover',
  decision: 'Decision',
  note: 'Note',
  wumpus: 'Animation',
}

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/** Dashboard → Activity (admins): who published, edited, deleted or promoted what, and what changed. */
export function ActivityLog() {
  usePageTitle('Activity')
  const { items: entries, morePages } = usePagedList(useSuspenseInfiniteQuery(activityQueryOptions()))

  return (
    <Stack gap="lg">
      <Title order={1}>Activity</Title>
      <Text c="dimmed" size="sm">
        Every admin action, newest first: animations published, edited and deleted, users made admins and users signed out everywhere.
      </Text>
      {entries.length === 0 ? (
        <Text>No admin actions yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={340}>
          <Table striped className={classes.table} aria-label="Admin activity">
            <Table.Thead>
              <Table.Tr>
                <Table.Th className={classes.wideOnly}>When</Table.Th>
                <Table.Th className={classes.wideOnly}>Who</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th className={classes.wideOnly}>Changes</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td className={`${activity.when} ${classes.wideOnly}`}>
                    <When at={entry.at} />
                  </Table.Td>
                  <Table.Td className={`${classes.email} ${classes.wideOnly}`}>
                    <Actor actor={entry.actor} />
                  </Table.Td>
                  <Table.Td className={classes.name}>
                    <Badge color={ACTION[entry.action].color} variant="light" size="sm">
                      {ACTION[entry.action].label}
                    </Badge>{' '}
                    <Target entry={entry} />
                    <Text size="xs" c="dimmed" className={`${classes.email} ${classes.phoneOnly}`}>
                      <When at={entry.at} /> by <Actor actor={entry.actor} />
                    </Text>
                    <div className={classes.phoneOnly}>
                      <Changes entry={entry} />
                    </div>
                  </Table.Td>
                  <Table.Td className={classes.wideOnly}>
                    <Changes entry={entry} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <MorePages {...morePages} noun="activity" />
    </Stack>
  )
}

function When({ at }: { at: string }) {
  return <time dateTime={at}>{when.format(new Date(at))}</time>
}

function Actor({ actor }: { actor: string }) {
  if (actor === CONFIG_ACTOR)
    return (
      <Text span inherit>
        the ADMIN_EMAILS setting
      </Text>
    )
  return (
    <Anchor href={profilePath(actor)} inherit>
      <EmailText email={actor} />
    </Anchor>
  )
}

/** The animation or user acted on; a deleted animation has no page any more. */
function Target({ entry }: { entry: ActivityEntry }) {
  const { target } = entry
  const name = target.name || target.id
  if (target.type === 'user') {
    return (
      <Anchor href={profilePath(target.id)} size="sm" className={classes.email}>
        {target.name ? name : <EmailText email={name} />}
      </Anchor>
    )
  }
  if (entry.action === 'wumpus.delete' || entry.action === 'pack.delete')
    return (
      <Text span size="sm" fw={500}>
        {name}
      </Text>
    )
  return (
    <Anchor href={`/${target.type === 'pack' ? 'packs' : 'wumpus'}/${encodeURIComponent(target.id)}`} size="sm">
      {name}
    </Anchor>
  )
}

function Changes({ entry }: { entry: ActivityEntry }) {
  // A publish or a delete lists every field; the name is already in the row.
  const changes = entry.changes.filter(
    (change) =>
      entry.action === 'wumpus.edit' || entry.action === 'pack.edit' || entry.action.startsWith('user.') || change.field !== 'name',
  )
  if (changes.length === 0) return null
  return (
    <dl className={activity.changes}>
      {changes.map((change) => (
        <div key={change.field} className={activity.change}>
          <dt>{FIELD[change.field] ?? change.field}</dt>
          <dd>
            {change.from !== undefined && <del>{change.from}</del>}
            {change.from !== undefined && change.to !== undefined && <span aria-hidden="true"> → </span>}
            {change.to !== undefined && <ins>{change.to}</ins>}
          </dd>
        </div>
      ))}
    </dl>
  )
}
