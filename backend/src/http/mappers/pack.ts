import { packDownloadPath } from '../../../../contract/api-paths'
import { WASTICKERS, type Pack, type PackDetail, type PackDownload, type UpdatedPack } from '../../../../contract/pack'
import { PLATFORM_RULES } from '../../../../contract/stickers'
import { bytesOf, zipName, zipParts, type ZipPlan } from '../../services/pack-zips'
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
    downloads: view.plans.map((plan) =>
      toApiPackDownload(
        view.pack,
        plan,
        keys && view.pack.visibility !== 'public' && view.createdBy !== null ? keys.signPack(view.pack.id) : undefined,
      ),
    ),
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
