import { isApiError } from './api-client'

/** Why the server refused a request, as it said it; the fallback for anything else (a bug, a lost chunk). */
export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  return isApiError(error) ? error.message : fallback
}

/** Field problems of a 400 answer (`details: [{ path, message }]`), by field name. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!isApiError(error, 400) || !Array.isArray(error.details)) return {}
  const errors: Record<string, string> = {}
  for (const detail of error.details as unknown[]) {
    const { path, message } = (detail ?? {}) as { path?: unknown; message?: unknown }
    if (typeof path === 'string' && typeof message === 'string' && !errors[path]) errors[path] = message
  }
  return errors
}
