// The pack rules: admins make ordered packs of existing animations (1 to 200, each once, the cover one of
// them); anyone lists and opens them, and downloads one ZIP per chat platform made of the platform files
// the server already made for each animation (services/derived-media.ts). The ZIPs themselves, checked
// against each platform's pack rules before a byte is sent, are services/pack-zips.ts.
import type { Pack, PackDetail } from '../../../contract/pack'
import { PLATFORMS, type Platform } from '../../../contract/stickers'
import { badRequest, HttpError, notFound } from '../http/http-error'
import type { Logger } from '../logger'
import { toApiWumpus } from '../http/mappers/wumpus'
import type { AuditChange, NewPack, PackPatch, PackRecord, Store, WumpusRecord } from '../store/port'
import { fieldChanges, type AuditLog } from './audit'
import { planZip, toDownload, writeZip, type PackZip } from './pack-zips'

export interface PackServiceDeps {
  store: Store
  audit: AuditLog
  logger: Logger
}

type NewPackInput = Omit<NewPack, 'createdBy'>
const AUDIT_TEXT_MAX = 500

export interface PackService {
  list(query: { limit: number; cursor?: string }): Promise<{ items: Pack[]; total: number; nextCursor?: string }>
  /** The pack with its stickers in order and one download per platform; throws NOT_FOUND. */
  detail(id: string): Promise<PackDetail>
  create(actor: string, input: NewPackInput): Promise<Pack>
  /** Throws NOT_FOUND for an unknown pack. */
  update(actor: string, id: string, patch: PackPatch): Promise<Pack>
  remove(actor: string, id: string): Promise<number>
  /**
   * Throws NOT_FOUND, or PACK_NOT_FIT (422) with the reason when the pack breaks the platform's rules. `part`
   * (from 1) picks one ZIP of a pack the platform takes in parts (BAD_REQUEST without it, NOT_FOUND past the last).
   */
  zip(id: string, platform: Platform, part?: number): Promise<PackZip>
}

export function createPackService({ store, audit, logger }: PackServiceDeps): PackService {
  /** The pack's animations in order; ids of animations deleted meanwhile are skipped. */
  async function itemsOf(pack: Pick<PackRecord, 'wumpusIds'>): Promise<WumpusRecord[]> {
    const records = await Promise.all(pack.wumpusIds.map((id) => store.wumpuses.get(id)))
    return records.filter((record): record is WumpusRecord => record !== undefined)
  }

  async function getPack(id: string): Promise<PackRecord> {
    const pack = await store.packs.get(id)
    if (!pack) throw notFound('No pack with this id')
    return pack
  }

  /** The animations the ids name, in order; unknown ids are refused, all of them named. */
  async function existing(ids: string[]): Promise<WumpusRecord[]> {
    const records = await Promise.all(ids.map((id) => store.wumpuses.get(id)))
    const unknown = ids.filter((_, i) => !records[i])
    if (unknown.length > 0) {
      throw badRequest(
        `${unknown.length === 1 ? 'One sticker does' : `${unknown.length} stickers do`} not exist (any more): ${unknown.join(', ')}`,
        {
          field: 'wumpusIds',
          unknown,
        },
      )
    }
    return records as WumpusRecord[]
  }

  async function toPack(pack: PackRecord, items?: WumpusRecord[]): Promise<Pack> {
    const cover = pack.coverWumpusId
      ? (items?.find((item) => item._id === pack.coverWumpusId) ?? (await store.wumpuses.get(pack.coverWumpusId)))
      : undefined
    return {
      id: pack.id,
      name: pack.name,
      description: pack.description,
      coverWumpusId: pack.coverWumpusId,
      wumpusIds: pack.wumpusIds,
      cover: cover ? toApiWumpus(cover) : null,
      visibility: 'public',
      createdBy: pack.createdBy,
      createdAt: pack.createdAt.toISOString(),
      updatedAt: pack.updatedAt.toISOString(),
    }
  }

  return {
    async list(query) {
      const page = await store.packs.list(query)
      return { ...page, items: await Promise.all(page.items.map((pack) => toPack(pack))) }
    },

    async detail(id) {
      const pack = await getPack(id)
      const items = await itemsOf(pack)
      return {
        ...(await toPack(pack, items)),
        items: items.map(toApiWumpus),
        downloads: PLATFORMS.map((platform) => toDownload(pack, planZip(pack, items, platform))),
      }
    },

    async create(actor, input) {
      const items = await existing(input.wumpusIds)
      const pack = await store.packs.insert({ ...input, createdBy: actor })
      await audit.record({
        actor,
        action: 'pack.create',
        target: { type: 'pack', id: pack.id, name: pack.name },
        changes: packChanges(undefined, pack, items),
      })
      return toPack(pack, items)
    },

    async update(actor, id, patch) {
      const before = await getPack(id)
      const newItems = patch.wumpusIds ? await existing(patch.wumpusIds) : []
      if (patch.coverWumpusId && !(patch.wumpusIds ?? before.wumpusIds).includes(patch.coverWumpusId)) {
        throw badRequest('The cover must be one of the pack’s stickers', { field: 'coverWumpusId' })
      }
      const updated = await store.packs.update(id, patch)
      if (!updated) throw notFound('No pack with this id')
      const items = [...(await itemsOf(before)), ...newItems]
      const changes = packChanges(before, updated, items)
      if (changes.length > 0) await audit.record({ actor, action: 'pack.edit', target: { type: 'pack', id, name: updated.name }, changes })
      return toPack(updated, items)
    },

    async remove(actor, id) {
      const pack = await store.packs.get(id)
      const deleted = pack ? await store.packs.delete(pack.id) : 0
      if (pack && deleted > 0) {
        await audit.record({
          actor,
          action: 'pack.delete',
          target: { type: 'pack', id: pack.id, name: pack.name },
          changes: packChanges(pack, undefined, await itemsOf(pack)),
        })
      }
      return deleted
    },

    async zip(id, platform, part) {
      const pack = await getPack(id)
      const plan = planZip(pack, await itemsOf(pack), platform)
      if (!plan.fits)
        throw new HttpError('PACK_NOT_FIT', plan.message!, { platform, stickers: plan.entries.length, missing: plan.left.length })
      return writeZip(store, logger, pack, plan, part)
    },
  }
}

/** The fields of a pack as the Activity page shows them. */
function packFields(pack: PackRecord, items: WumpusRecord[]): Record<string, string> {
  const nameOf = (id: string) => items.find((item) => item._id === id)?.name ?? id
  const stickers = `${pack.wumpusIds.length}: ${pack.wumpusIds.map(nameOf).join(', ')}`
  return {
    name: pack.name,
    description: pack.description,
    stickers: stickers.length > AUDIT_TEXT_MAX ? `${stickers.slice(0, AUDIT_TEXT_MAX - 1)}…` : stickers,
    cover: pack.coverWumpusId ? nameOf(pack.coverWumpusId) : '',
  }
}

function packChanges(before: PackRecord | undefined, after: PackRecord | undefined, items: WumpusRecord[]): AuditChange[] {
  return fieldChanges(before ? packFields(before, items) : {}, after ? packFields(after, items) : {})
}
