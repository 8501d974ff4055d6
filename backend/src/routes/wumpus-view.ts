import type { Wumpus } from '../../../contract/wumpus'
import type { FileRef, WumpusRecord } from '../store/port'

/** Stable URL of a stored file; it ends with the original name so a download can keep it. */
export function fileUrl(ref: FileRef): string {
  return `/api/files/${ref.id}/${encodeURIComponent(ref.filename)}`
}

/** A stored record as the API shows it (spec section 3). */
export function toApiWumpus(record: WumpusRecord): Wumpus {
  return {
    _id: record._id,
    name: record.name,
    description: record.description,
    gif: fileUrl(record.files.gif),
    apng: fileUrl(record.files.apng),
    lottie: fileUrl(record.files.lottie),
    u_email: record.u_email,
    u_name: record.u_name,
    tags: record.tags,
    downloads: record.downloads,
    createdAt: record.createdAt.toISOString(),
  }
}
