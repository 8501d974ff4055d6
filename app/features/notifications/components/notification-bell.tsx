import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import buttonClasses from '../../../components/button.module.css'
import { StrokeIcon } from '../../../components/stroke-icon'
import { usePageVisible } from '../../../lib/use-page-visible'
import { NOTIFICATIONS_POLL_MS, notificationsQueryOptions } from '../api'
import classes from './notifications.module.css'

/** The bell in the header: a link to one's notifications with the unread count, asked again every minute while the page is in front. */
export function NotificationBell({ email }: { email: string }) {
  const visible = usePageVisible()
  const { data } = useQuery({ ...notificationsQueryOptions(email), refetchInterval: visible ? NOTIFICATIONS_POLL_MS : false })
  const unread = data?.unread ?? 0
  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'
  return (
    <Link
      to="/dashboard/notifications"
      className={`${buttonClasses.icon} ${classes.bell}`}
      data-variant="default"
      data-size="lg"
      aria-label={label}
      title={label}
    >
      <span className={buttonClasses.label}>
        <StrokeIcon size={20}>
          <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
          <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
        </StrokeIcon>
      </span>
      {unread > 0 && (
        <span className={classes.badge} aria-hidden="true">
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Link>
  )
}
