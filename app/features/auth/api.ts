import { queryOptions, useQuery } from '@tanstack/react-query'
import { isAdminPath, wumpusListPath } from '../../../contract/api-paths'
import { MAX_IMAGE_BYTES } from '../../../contract/limits'
import type { Wumpus } from '../../../contract/wumpus'
import { apiRequest, trusted } from '../../lib/api-client'
import { useSession } from '../../lib/session-provider'
import { uploadImage } from '../../lib/upload'

export const authKeys = {
  /** Whether that user is an admin. */
  admin: (email: string) => ['admin', email.toLowerCase()] as const,
  mascots: () => ['auth', 'mascots'] as const,
  emailVerification: (email: string) => ['auth', 'email-verification', email] as const,
}

/** GET /api/admin/{email}: whether that user is an admin. */
export const adminQueryOptions = (email: string) =>
  queryOptions({
    queryKey: authKeys.admin(email),
    queryFn: ({ signal }) => apiRequest(isAdminPath(email), trusted<{ admin: boolean }>(), { signal }),
  })

/** Whether the signed-in user is an admin; false while signed out, loading or when the check fails. */
export function useIsAdmin(): { isAdmin: boolean; isPending: boolean } {
  const session = useSession()
  const email = session.status === 'signed-in' ? session.user.email : ''
  const query = useQuery({ ...adminQueryOptions(email), enabled: email !== '' })
  return { isAdmin: query.data?.admin === true, isPending: email !== '' && query.isPending }
}

/** Two demo mascots' Lottie files, shown beside the sign-in form (the second one while signing in). */
export const authMascotsQueryOptions = () =>
  queryOptions({
    queryKey: authKeys.mascots(),
    queryFn: async ({ signal }) => {
      const items = await apiRequest(wumpusListPath({ limit: 2 }), trusted<Wumpus[]>(), { signal })
      return items.map((item) => ({ name: item.name, lottie: item.lottie }))
    },
    staleTime: Infinity,
  })

/** Image types the sign-up photo may have: png, gif, jpeg, jpg (docs/product-rules.md#limits). */
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
