import { isApiError } from './api-client'

/**
 * Whether signing out everywhere (DELETE /api/sessions, or an admin's /api/admin/{email}/sessions) was
 * answered with the 503 that says every session ended but Firebase could not revoke the sign-ins (reason
 * `revocation-failed`, docs/rest-api.md); then how many sessions ended, when the server said.
 */
export function revocationFailure(error: unknown): { endedCount?: number } | undefined {
  if (!isApiError(error)) return undefined
  const details = error.details as { reason?: unknown; endedCount?: unknown } | undefined
  if (details?.reason !== 'revocation-failed') return undefined
  return { endedCount: typeof details.endedCount === 'number' ? details.endedCount : undefined }
}
