import { PLATFORM_RULES, PLATFORMS, type StickerExport } from '../../../contract/stickers'
import type { Wumpus } from '../../../contract/wumpus'
import { derivedIsCurrent } from '../services/derived-media'
import type { FileRef, WumpusRecord } from '../store/port'

/** Stable URL of a stored file; it ends with the original name so a download can keep it. */
export function fileUrl(ref: FileRef): string {
  return `/api/files/${ref.id}/${encodeURIComponent(ref.filename)}`
}

/** A stored record as the API shows it (docs/product-rules.md#data-shapes), with the card previews once they exist. */
export function toApiWumpus(record: WumpusRecord): Wumpus {
  const previews = derivedIsCurrent(record) ? record.derived.previews : undefined
  return {
    _id: record._id,
    name: record.name,
    description: record.description,
    gif: fileUrl(record.files.gif),
    apng: fileUrl(record.files.apng),
    lottie: fileUrl(record.files.lottie),
    ...(previews ? { preview: { webp: fileUrl(previews.small), webp2x: fileUrl(previews.large), still: fileUrl(previews.still) } } : {}),
    u_email: record.u_email,
    u_name: record.u_name,
    tags: record.tags,
    downloads: record.downloads,
    createdAt: record.createdAt.toISOString(),
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
    const stamp = `${record.updatedAt.getTime()}.${record.downloads}.${record.derived?.madeAt.getTime() ?? 0}`
    const kept = this.kept.get(record._id)
    if (kept?.stamp === stamp) return kept.json
    const json = JSON.stringify(toApiWumpus(record))
    this.kept.delete(record._id)
    if (this.kept.size >= this.maxEntries) this.kept.delete(this.kept.keys().next().value!)
    this.kept.set(record._id, { stamp, json })
    return json
  }
}

const NOT_YET = 'Being made: the server renders it from the Lottie, usually within a minute.'

/** One entry per platform, from what is stored on the record (GET /api/wumpus/{id}/stickers). */
export function toApiStickers(record: WumpusRecord): StickerExport[] {
  const current = derivedIsCurrent(record) ? record.derived : undefined
  return PLATFORMS.map((platform) => {
    const base = {
      platform, label: PLATFORM_RULES[platform].label, url: null, fileName: null, contentType: null,
      bytes: null, width: null, height: null, frames: null, durationMs: null,
    }
    const made = current?.exports.find((e) => e.platform === platform)
    if (!current || !made) return { ...base, status: 'pending' as const, notes: [NOT_YET] }
    const file = made.file
    if (!file) return { ...base, status: 'absent' as const, notes: made.notes }
    return {
      ...base, status: 'ready' as const, url: fileUrl(file), fileName: file.filename, contentType: file.contentType,
      bytes: file.bytes, width: file.width, height: file.height, frames: file.frames, durationMs: file.durationMs, notes: made.notes,
    }
  })
}
