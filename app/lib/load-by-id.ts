import { notFound } from '@tanstack/react-router'
import { ID_PATTERN } from '../../contract/limits'
import { isApiError } from './api-client'

/**
 * A route loader's loads for the thing its `$id` names: a malformed id, or a 404 answer to any of the
 * loads, is the route's not-found page; other failures are its error page.
 */
export async function loadById(id: string, load: () => Promise<unknown>): Promise<void> {
  if (!ID_PATTERN.test(id)) throw notFound()
  try {
    await load()
  } catch (error) {
    if (isApiError(error, 404)) throw notFound()
    throw error
  }
}
