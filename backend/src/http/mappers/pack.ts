import { packDownloadPath } from '../../../../contract/api-paths'
import { WASTICKERS, type Pack, type PackDetail, type PackDownload, type UpdatedPack } from '../../../../contract/pack'
import { PLATFORM_RULES } from '../../../../contract/stickers'
import { bytesOf, zipName, zipParts, type ZipPlan } from '../../services/pack-zips'
import { IMPORT_LABELS, pleromaFilePath, type PackImport } from '../../../../contract/pack-imports'
import { importFileName, pleromaPackName, type ImportPlan } from '../../services/pack-imports'
import type { PackDetailView, PackView } from '../../services/packs'
import type { PackRecord } from '../../store/port'
import type { FileKeys } from '../file-keys'
import type { MakerEmailShown } from '../../domain/visibility'
import { toApiWumpus } from './wumpus'

/**
 * A pack as the API shows it; `keys` for the file URLs of the owner's private remixes, `makerEmailShown`
 * for its remixes' maker (toApiWumpus).
 */
export function toApiPack({ pack, cover, createdBy }: PackView, keys?: FileKeys, makerEmailShown?: MakerEmailShown): Pack {
  return {
    id: pack.id,
    name: pack.name,
    description: pack.description,
    coverWumpusId: pack.coverWumpusId,
    wumpusIds: pack.wumpusIds,
    cover: cover ? toApiWumpus(cover, keys, makerEmailShown) : null,
    visibility: pack.visibility,
    createdBy,
    createdAt: pack.createdAt.toISOString(),
    updatedAt: pack.updatedAt.toISOString(),
  }
}

/** A pack after an edit, with the fields of the edit that a later one kept. */
export function toApiUpdatedPack(
  view: PackView & Pick<UpdatedPack, 'superseded'>,
  keys?: FileKeys,
  makerEmailShown?: MakerEmailShown,
): UpdatedPack {
  return { ...toApiPack(view, keys, makerEmailShown), superseded: view.superseded }
}

/** A pack opened (GET /api/packs/{id}): its stickers in order and one download per platform. */
export function toApiPackDetail(view: PackDetailView, keys?: FileKeys, makerEmailShown?: MakerEmailShown): PackDetail {
  return {
    ...toApiPack(view, keys, makerEmailShown),
    items: view.items.map((item) => toApiWumpus(item, keys, makerEmailShown)),
    // A personal pack's maker and admins get keyed URLs: a plain download link carries no bearer.
    downloads: view.plans.map((plan) => toApiPackDownload(view.pack, plan, makerKey(view, keys))),
    imports: view.imports.map((plan) => toApiPackImport(view.pack, plan, makerKey(view, keys))),
  }
}

const makerKey = (view: PackDetailView, keys?: FileKeys) =>
  keys && view.pack.visibility !== 'public' && view.createdBy !== null ? keys.signPack(view.pack.id) : undefined

/**
 * One community server's emoji archive of a pack; for Pleroma / Akkoma, where another server pulls a pack that
 * is public or shared by link (a private pack has no such address: a server pulls with no session).
 */
export function toApiPackImport(pack: PackRecord, plan: ImportPlan, key?: string): PackImport {
  return {
    format: plan.format,
    label: IMPORT_LABELS[plan.format],
    url: packDownloadPath(pack.id, plan.format, undefined, key),
    fileName: importFileName(pack, plan.format),
    fits: plan.fits,
    message: plan.message,
    emoji: plan.entries.length,
    skipped: plan.skipped.length,
    bytes: plan.entries.reduce((sum, entry) => sum + entry.file.bytes, 0),
    notes: plan.notes,
    pleroma:
      plan.format === 'pleroma' && plan.fits && pack.visibility !== 'private'
        ? {
            packName: pleromaPackName(pack),
            manifestUrl: pleromaFilePath(pack.id, 'manifest.json'),
            packJsonUrl: pleromaFilePath(pack.id, 'pack.json'),
          }
        : null,
  }
}

/**
 * What the pack page says of one platform's ZIP: whether it fits, what it holds, and its parts with their URLs
 * (with `key` in them for a personal pack's maker and admins).
 */
export function toApiPackDownload(pack: PackRecord, plan: ZipPlan, key?: string): PackDownload {
  // What the download holds: the stickers of its parts (all with a file, when it does not fit: what there is).
  const held = plan.fits ? plan.parts.flatMap((part) => part.items) : plan.entries
  return {
    platform: plan.platform,
    label: PLATFORM_RULES[plan.platform].label,
    url: packDownloadPath(pack.id, plan.platform, undefined, key),
    fileName: zipName(pack, plan.platform),
    fits: plan.fits,
    message: plan.message,
    stickers: held.length,
    missing: plan.left.length,
    bytes: bytesOf(held),
    notes: plan.notes,
    parts:
      plan.parts.length > 1
        ? zipParts(pack, plan).map(({ part, fileName, stickers, bytes, still }) => ({
            part,
            url: packDownloadPath(pack.id, plan.platform, part, key),
            fileName,
            stickers,
            bytes,
            still,
            wastickers: wastickersFile(pack, plan, key, { number: part, of: plan.parts.length }),
          }))
        : [],
    wastickers: plan.parts.length > 1 ? null : wastickersFile(pack, plan, key),
  }
}

/** WhatsApp's pack (or part) as a `.wastickers` file; null for other apps. */
function wastickersFile(pack: PackRecord, plan: ZipPlan, key?: string, part?: { number: number; of: number }): PackDownload['wastickers'] {
  if (plan.platform !== 'whatsapp') return null
  return { url: packDownloadPath(pack.id, WASTICKERS, part?.number, key), fileName: zipName(pack, plan.platform, part, 'wastickers') }
}
