import { Stack, Text, Title } from '@mantine/core'
import { useSuspenseQuery } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import type { ApiNotification } from '../../../../contract/notifications'
import { AnchorLink } from '../../../components/router-links'
import { usePageTitle } from '../../../lib/page-title'
import { usePageVisible } from '../../../lib/use-page-visible'
import { NOTIFICATIONS_POLL_MS, notificationsQueryOptions, useMarkNotificationsRead } from '../api'
import classes from './notifications.module.css'

/** Dashboard → Notifications: what happened to one's submissions and reports, newest first; seen, they are marked read. */
export function NotificationsPage({ email }: { email: string }) {
  usePageTitle('Notifications')
  const visible = usePageVisible()
  const { data } = useSuspenseQuery({ ...notificationsQueryOptions(email), refetchInterval: visible ? NOTIFICATIONS_POLL_MS : false })
  const markRead = useMarkNotificationsRead(email)
  const marking = useRef<string | null>(null)
  const newest = data.items[0]

  // Seen while the page is in front: the newest unread one and every older one are marked read (once each);
  // offline too, sent when the server can be reached.
  useEffect(() => {
    if (!visible || !newest || data.unread === 0 || marking.current === newest.id) return
    marking.current = newest.id
    markRead.mutate(newest.id, { onError: () => (marking.current = null) })
  }, [visible, data.unread, newest, markRead])

  return (
    <Stack gap="lg">
      <Title order={1}>Notifications</Title>
      {data.fromOfflineCopy && <Text c="dimmed">Offline: these are the notifications this device last read.</Text>}
      {data.items.length === 0 ? (
        <Text>Nothing yet. When an admin decides on a sticker you submitted or a problem you reported, you will hear of it here.</Text>
      ) : (
        <ul className={classes.list} aria-label="Notifications">
          {data.items.map((notification) => (
            <li key={notification.id} className={classes.item} data-unread={notification.read ? undefined : true}>
              <NotificationText notification={notification} />
              {notification.note && (
                <Text size="sm" className={classes.note}>
                  {notification.kind === 'submission.refused' ? 'Reason: ' : 'Note: '}
                  {notification.note}
                </Text>
              )}
              <Text size="xs" c="dimmed">
                {notification.read ? '' : 'New · '}
                {new Date(notification.createdAt).toLocaleString()}
              </Text>
            </li>
          ))}
        </ul>
      )}
    </Stack>
  )
}

const DECISIONS: Record<string, string> = {
  dismiss: 'dismissed: nothing needed changing',
  restore: 'it was looked at and is back in the gallery',
  delete: 'it was removed from the gallery',
}

function NotificationText({ notification }: { notification: ApiNotification }) {
  const name = <SubjectLink notification={notification} />
  switch (notification.kind) {
    case 'submission.published':
      return <Text>Your submission {name} was published: it is in the gallery now.</Text>
    case 'submission.changes':
      return <Text>An admin asked for changes to your submission {name}.</Text>
    case 'submission.refused':
      return <Text>Your submission {name} was refused.</Text>
    case 'report.decided':
      return (
        <Text>
          The report you sent about {name} was decided
          {notification.decision ? `: ${DECISIONS[notification.decision] ?? notification.decision}` : ''}.
        </Text>
      )
  }
}

function SubjectLink({ notification }: { notification: ApiNotification }) {
  const { kind, id, name } = notification.subject
  const text = name ? `“${name}”` : kind === 'pack' ? 'a pack' : 'a sticker'
  // Asked to change: its edit page; published or refused: My submissions, where it stands (with the reason).
  if (kind === 'submission')
    return notification.kind === 'submission.changes' ? (
      <AnchorLink to="/dashboard/submissions/$id" params={{ id }}>
        {text}
      </AnchorLink>
    ) : (
      <AnchorLink to="/dashboard/submissions">{text}</AnchorLink>
    )
  // A deleted sticker has no page left to open.
  if (notification.decision === 'delete') return <>{text}</>
  if (kind === 'pack')
    return (
      <AnchorLink to="/packs/$id" params={{ id }}>
        {text}
      </AnchorLink>
    )
  return (
    <AnchorLink to="/wumpus/$id" params={{ id }}>
      {text}
    </AnchorLink>
  )
}
