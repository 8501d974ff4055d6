import type { User } from '../../../../contract/user'
import type { UserRecord } from '../../store/port'

/** A stored user as the API shows it: the profile and role, never the sign-in binding. */
export function toApiUser(user: UserRecord): User {
  const { email, user_name, role, photo, cover, url, job, description } = user
  return { email, user_name, role, photo, cover, url, job, description }
}
