import type { NotificationData } from '@mantine/notifications'

/**
 * Shows a toast. The toasts' store loads on first use, so code on the home page's first load (the
 * gallery's save buttons) does not carry it (the app shell fetches it once the page is interactive).
 */
export function showToast(toast: NotificationData): void {
  void import('@mantine/notifications').then(({ notifications }) => notifications.show(toast))
}
