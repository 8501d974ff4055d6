import { isApiError } from '../../lib/api-client'

/** What to tell the user when saving for offline failed. */
export function saveErrorMessage(error: unknown): string {
  if (error instanceof DOMException && error.name === 'QuotaExceededError') {
    return 'This device has no room left for it. Remove saved stickers to free some space.'
  }
  if (isApiError(error)) return error.message
  return error instanceof Error ? error.message : 'Please try again.'
}
