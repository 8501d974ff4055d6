import { Notifications } from '@mantine/notifications'

/** Global toasts: bottom-center, closing after 2 s, no progress bar. Loaded lazily by AppNotifications. */
export default function ToastContainer() {
  return <Notifications position="bottom-center" autoClose={2000} />
}
