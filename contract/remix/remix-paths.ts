// The remix API's paths (contract/remix/remix-api.ts). Apart from contract/api-paths.ts, whose module the
// home page loads: only the editor and the remix pages, loaded later, need these.
import { pagedPath, wumpusPath } from '../api-paths'

/** `POST` a recipe: one's own version of this animation. */
export const remixPath = (id: string) => `${wumpusPath(id)}/remix`

/** `PUT { visibility }`: a remix shared by link, or private again. */
export const remixSharingPath = (id: string) => `${wumpusPath(id)}/sharing`

/** `POST`: its owner gives a remix's files new keys; the keyed URLs shown before open nothing any more. */
export const remixKeysPath = (id: string) => `${wumpusPath(id)}/key`

/** One's own remixes, newest first, a page at a time: `GET /api/me/remixes`. */
export function myRemixListPath(page: { limit?: number; cursor?: string | null } = {}): string {
  return pagedPath('/api/me/remixes', page)
}
