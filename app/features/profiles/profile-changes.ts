import type { ProfileUpdate, PublicProfile } from '../../../contract/user'

export type ProfileFormValues = Pick<PublicProfile, 'user_name' | 'url' | 'description' | 'job'>
const TEXT_FIELDS = ['user_name', 'url', 'description', 'job'] as const

export const profileFormValues = (user: PublicProfile): ProfileFormValues => ({
  user_name: user.user_name,
  url: user.url,
  description: user.description,
  job: user.job,
})

/**
 * The fields that differ from the stored profile, for PUT /api/user/{email}. An emptied field falls
 * back to the existing value (it is not sent), as the edit forms do (docs/pages.md#edit-animation).
 */
export function profileChanges(
  user: PublicProfile,
  values: ProfileFormValues,
  images: { photo?: string; cover?: string } = {},
): ProfileUpdate {
  const changes: ProfileUpdate = {}
  for (const key of TEXT_FIELDS) {
    const value = values[key].trim()
    if (value && value !== user[key]) changes[key] = value
  }
  if (images.photo && images.photo !== user.photo) changes.photo = images.photo
  if (images.cover && images.cover !== user.cover) changes.cover = images.cover
  return changes
}
