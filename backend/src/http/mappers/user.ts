import type { PublicProfile, User } from '../../../../contract/user'
import type { UserRecord } from '../../store/port'

/** A user as the API answers them; `showSensitive` only to the person themself. */
export type ApiUser = Omit<User, 'showSensitive'> & Partial<Pick<User, 'showSensitive'>>

/**
 * A stored user as the API shows it to `viewer` (the signed-in caller's email): the profile and role, never
 * the sign-in binding. Their choice to see sensitive stickers is theirs alone: admins who list or edit
 * others never get it.
 */
export function toApiUser(user: UserRecord, viewer: string): ApiUser {
  const { email, user_name, role, photo, cover, url, job, description, showSensitive } = user
  return { email, user_name, role, photo, cover, url, job, description, ...(viewer === email ? { showSensitive } : {}) }
}

/** What others see of a user: the profile without the role. */
export function toPublicProfile(user: UserRecord): PublicProfile {
  const { email, user_name, photo, cover, url, job, description } = user
  return { email, user_name, photo, cover, url, job, description }
}
