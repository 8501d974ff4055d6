import type { PublicProfile, User } from '../../../../contract/user'
import type { UserRecord } from '../../store/port'

/** A stored user as the API shows it: the profile and role, never the sign-in binding. */
export function toApiUser(user: UserRecord): User {
  const { email, user_name, role, photo, cover, url, job, description, showSensitive } = user
  return { email, user_name, role, photo, cover, url, job, description, showSensitive }
}

/** What others see of a user: the profile without the role. */
export function toPublicProfile(user: UserRecord): PublicProfile {
  const { role: _role, showSensitive: _showSensitive, ...profile } = toApiUser(user)
  return profile
}
