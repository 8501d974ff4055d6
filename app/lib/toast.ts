import type { NotificationData } from '@mantine/notifications'
import { shellPieces } from '../components/shell-pieces'

/**
 * Shows a toast. The toasts' store loads on first use, so code on the home page's first load (the
 * gallery's save buttons) does not carry it.
 */
export function showToast(toast: NotificationData): void {
  void shellPieces.toastStore().then(({ notifications }) => notifications.show(toast))
}
