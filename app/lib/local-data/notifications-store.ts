// The signed-in user's notifications as this device last read them (the `notifications` store, keyed by email):
// they answer when the network fails, and sign-out forgets them (personal-data.ts). Read and written by
// features/notifications.
import { get, set } from 'idb-keyval'
import type { NotificationPage } from '../../../contract/notifications'
import { offlineStore } from './stores'

const keptStore = () => offlineStore('notifications')

export async function readKeptNotifications(email: string): Promise<NotificationPage | undefined> {
  return get<NotificationPage>(email, keptStore()).catch(() => undefined)
}

/** A full disk or a closed database must not cost the user what the server answered: failures are ignored. */
export async function keepNotifications(email: string, page: NotificationPage): Promise<void> {
  await set(email, page, keptStore()).catch(() => {})
}
