// Who made an animation, as answers name them: by email (a profile link) or by display name only
// (domain/visibility.ts#showsMakerEmail). A contributor is someone with a published animation in the gallery.
import { showsMakerEmail, type MakerEmailShown } from '../domain/visibility'
import type { Viewer } from '../domain/viewer'
import type { Store, WumpusRecord } from '../store/port'

export interface MakerService {
  /** For an answer to the viewer showing these animations: whether it names each one's maker by email. */
  emailShown(viewer: Viewer, records: ReadonlyArray<WumpusRecord | undefined>): Promise<MakerEmailShown>
}

/** Whether `email` has a published animation (remixes are never listed): their profile is public. */
export async function isContributor(store: Store, email: string): Promise<boolean> {
  return (await store.wumpuses.list({ u_email: email, limit: 1, withSensitive: true })).items.length > 0
}

export function createMakerService(store: Store): MakerService {
  return {
    async emailShown(viewer, records) {
      // Only the makers whose email depends on it are looked up (remixes of others, for anyone but an admin).
      const asked = new Set(records.flatMap((record) => (record && !showsMakerEmail(record, viewer, false) ? [record.u_email] : [])))
      const contributors = new Set<string>()
      await Promise.all([...asked].map(async (email) => (await isContributor(store, email)) && contributors.add(email)))
      return (record) => showsMakerEmail(record, viewer, contributors.has(record.u_email))
    },
  }
}
