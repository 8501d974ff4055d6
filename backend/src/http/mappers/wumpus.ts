import type { Wumpus } from '../../../../contract/wumpus'
import { readyPlatforms } from '../../store/facets'
import type { WumpusRecord } from '../../store/port'
import { currentDerived } from '../../store/records'
import type { FileKeys } from '../file-keys'
import type { MakerEmailShown } from '../../domain/visibility'
import { recordFileUrl } from './file'

/** Answers only a remix's owner or an admin gets: its maker's email is always theirs to see. */
export const makerEmailAlwaysShown: MakerEmailShown = () => true

/** Answers with no remix of others in them, or none to name by email: an original's maker only. */
const originalsMakerEmail: MakerEmailShown = (record) => !record.remix

/**
 * A stored record as the API shows it (docs/rest-api.md#data-shapes), with the card previews once they
 * exist; `keys` for answers that may show a private remix to its owner or an admin; `makerEmailShown`
 * (services/makers.ts) for answers that may show a remix to others: without it no remix names its maker's email.
 */
export function toApiWumpus(record: WumpusRecord, keys?: FileKeys, makerEmailShown: MakerEmailShown = originalsMakerEmail): Wumpus {
  const fileUrl = recordFileUrl(record, keys)
  const previews = currentDerived(record)?.previews
  return {
    _id: record._id,
    name: record.name,
    description: record.description,
    gif: fileUrl(record.files.gif),
    apng: fileUrl(record.files.apng),
    lottie: fileUrl(record.files.lottie),
    ...(previews ? { preview: { webp: fileUrl(previews.small), webp2x: fileUrl(previews.large), still: fileUrl(previews.still) } } : {}),
    ...(makerEmailShown(record) ? { u_email: record.u_email } : {}),
    u_name: record.u_name,
    tags: record.tags,
    emoji: record.emoji,
    keywords: record.keywords,
    licence: record.licence,
    credit: record.credit,
    sensitive: record.sensitive,
    downloads: record.downloads,
    fits: readyPlatforms(record),
    createdAt: record.createdAt.toISOString(),
    ...(record.remix ? { remixOf: record.remix.of, recipe: record.remix.recipe, visibility: record.remix.visibility } : {}),
    ...(record.hidden ? { hidden: { at: record.hidden.at.toISOString(), by: record.hidden.by } } : {}),
  }
}

/**
 * Each animation's API JSON, kept while it stays the same (the same updatedAt, download count and derived
 * media), so a list page joins strings instead of rebuilding and serializing its items: a page costs a
 * third less.
 */
export class ApiWumpusJson {
  private readonly kept = new Map<string, { stamp: string; json: string }>()

  constructor(private readonly maxEntries = 20_000) {}

  /** A JSON array of the records as the API shows them. */
  list(records: WumpusRecord[]): string {
    return `[${records.map((record) => this.one(record)).join(',')}]`
  }

  private one(record: WumpusRecord): string {
    // Previews made in the background change the JSON without moving updatedAt.
    const stamp = `${record.updatedAt.getTime()}.${record.downloads}.${record.derived?.madeAt.getTime() ?? 0}.${record.hidden?.at.getTime() ?? 0}`
    const kept = this.kept.get(record._id)
    if (kept?.stamp === stamp) return kept.json
    const json = JSON.stringify(toApiWumpus(record))
    this.kept.delete(record._id)
    if (this.kept.size >= this.maxEntries) this.kept.delete(this.kept.keys().next().value!)
    this.kept.set(record._id, { stamp, json })
    return json
  }
}
