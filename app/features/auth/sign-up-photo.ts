// The sign-up photo: kept out of api.ts, which route guards load on every page, so the upload code
// (and its response schemas) load only with the sign-up page.
import { MAX_IMAGE_BYTES } from '../../../contract/limits'
import { uploadImage } from '../../lib/upload'

/** Image types the sign-up photo may have: png, gif, jpeg, jpg (docs/product.md#limits). */
export const PHOTO_ACCEPT = '.png,.gif,.jpeg,.jpg'
const PHOTO_TYPES = ['image/png', 'image/gif', 'image/jpeg']

/** Why a chosen photo cannot be used, or null when it can. The server checks its bytes again. */
export function photoProblem(file: File): string | null {
  const byName = /\.(png|gif|jpe?g)$/i.test(file.name)
  if (!byName || (file.type !== '' && !PHOTO_TYPES.includes(file.type))) return 'Photo must be a png, gif, jpeg or jpg image'
  if (file.size > MAX_IMAGE_BYTES) return `Photo must be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB`
  return null
}

/** The sign-up photo, stored like any image (POST /api/uploads/image): answers its same-origin path. */
export async function uploadSignUpPhoto(file: File): Promise<string> {
  return (await uploadImage(file)).url
}
