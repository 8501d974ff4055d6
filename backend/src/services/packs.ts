// The pack rules: admins make the public, curated packs; any user with a verified email makes personal ones
// (private, or shared by link), up to PERSONAL_PACKS_MAX. A pack is an ordered selection of existing
// animations (1 to 200, each once, the cover one of them); a private pack is NOT_FOUND to anyone but its
// owner and admins. Edits keep the latest edit per field (an edit queued offline brings its own time).
// Anyone who may open a pack downloads ZIPs per chat platform made of the platform files the server already
// made for each animation (services/derived-media.ts); the ZIPs themselves, checked against each
// platform's pack rules before a byte is sent, are services/pack-zips.ts.
import { PERSONAL_PACKS_MAX } from '../../../contract/limits'
import { PLATFORMS, type Platform } from '../../../contract/stickers'
import { isAdminViewer, type Actor, type Viewer } from '../domain/viewer'
import { canSee } from '../domain/visibility'
import type { Logger } from '../logger'
import type { AuditChange, NewPack, PackPatch, PackRecord, PackUpdate, Store, WumpusRecord } from '../store/port'
import { fieldChanges, type AuditLog } from './audit'
import { PACK_PUBLISHER } from './pack-manifests'
import { planZip, writeZip, type PackArchive, type PackZip, type ZipPlan } from './pack-zips'
import { IMPORT_FORMATS, type ImportFormat, type PLEROMA_FILES } from '../../../contract/pack-imports'
import { planImport, pleromaFile, writeImport, type ImportArchive, type ImportContext, type ImportPlan } from './pack-imports'
import { conflict, doesNotFit, forbidden, invalid, notFound } from '../domain/errors'

export interface PackServiceDeps {
  store: Store
  audit: AuditLog
  logger: Logger
  /** Told of each edit and deletion of a pack, public or personal (its Telegram set follows: services/telegram-sets.ts). */
  onPublicChange?: (packId: string, change: 'edited' | 'deleted') => void
}

type NewPackInput = Pick<NewPack, 'name' | 'description' | 'wumpusIds' | 'coverWumpusId'>
const AUDIT_TEXT_MAX = 500
const NO_SUCH_PACK = 'No pack with this id'

/** A pack as the viewer may see it: its cover when they may see that animation, its maker when they may know them. */
export interface PackView {
  pack: PackRecord
  cover: WumpusRecord | undefined
  /** Who made it; null for a personal pack opened by anyone but its owner and admins. */
  createdBy: string | null
}

/** A pack opened: its stickers the viewer may see, in order, and what each platform's ZIP would hold. */
export interface PackDetailView extends PackView {
  items: WumpusRecord[]
  plans: ZipPlan[]
  /** What each community server's import archive would hold (Misskey, Mastodon, Pleroma / Akkoma). */
  imports: ImportPlan[]
}

type Page<T> = { items: T[]; total: number; nextCursor?: string }

export interface PackService {
  /** The public packs, newest first. */
  list(query: { limit: number; cursor?: string }): Promise<Page<PackView>>
  /** One owner's personal packs, most recently updated first. */
  listPersonal(owner: string, query: { limit: number; cursor?: string }): Promise<Page<PackView>>
  /** The pack with its stickers in order and one download per platform; throws NOT_FOUND (a private pack the viewer may not open too). */
  detail(id: string, viewer: Viewer): Promise<PackDetailView>
  /** A public pack (the caller checked the actor is an admin). */
  create(actor: string, input: NewPackInput): Promise<PackView>
  /** A personal pack of the owner's; throws CONFLICT (reason packs-full) at PERSONAL_PACKS_MAX. */
  createPersonal(owner: string, input: NewPackInput & { visibility: 'link' | 'private' }): Promise<PackView>
  /**
   * Applies the fields of the patch not edited later than `editedAt` (default now; a later time is now).
   * Public packs: admins only; personal packs: their owner and admins. Throws NOT_FOUND for an unknown
   * pack (or a private pack of someone else), FORBIDDEN for a pack the actor may open but not change.
   */
  update(actor: Actor, id: string, patch: PackPatch, options?: { editedAt?: Date }): Promise<PackView & Pick<PackUpdate, 'superseded'>>
  /** Who may delete a pack is who may change it; answers 0 for an unknown pack. */
  remove(actor: Actor, id: string): Promise<number>
  /**
   * Throws NOT_FOUND as detail does, or PACK_NOT_FIT (422) with the reason when the pack breaks the platform's
   * rules. `part` (from 1) picks one ZIP of a pack the platform takes in parts (BAD_REQUEST without it,
   * NOT_FOUND past the last). `asMaker` (the key in the URLs its maker and admins are shown): a personal
   * pack as its maker has it, their private remixes and name as its publisher included. `archive`: how it is named.
   */
  zip(
    id: string,
    platform: Platform,
    viewer: Viewer,
    options?: { part?: number; asMaker?: boolean; archive?: PackArchive },
  ): Promise<PackZip & Pick<PackRecord, 'visibility'>>
  /**
   * A community server's emoji archive of the pack (services/pack-imports.ts): opened as zip opens a pack;
   * PACK_NOT_FIT (422) when none of its stickers has an emoji file.
   */
  importArchive(
    id: string,
    format: ImportFormat,
    viewer: Viewer,
    options: { asMaker?: boolean; context: ImportContext },
  ): Promise<ImportArchive & Pick<PackRecord, 'visibility'>>
  /**
   * A pack's Pleroma / Akkoma file as another server reads it, with no session: public packs and packs shared
   * by link only (a private pack is NOT_FOUND to everyone here).
   */
  pleromaFile(
    id: string,
    file: (typeof PLEROMA_FILES)[number],
    context: ImportContext,
  ): Promise<{ body: unknown } & Pick<PackRecord, 'visibility'>>
}

const isOwner = (pack: PackRecord, viewer: Viewer) => pack.visibility !== 'public' && viewer?.email === pack.createdBy

export function createPackService({ store, audit, logger, onPublicChange }: PackServiceDeps): PackService {
  /** The pack's animations in order; ids of animations deleted meanwhile are skipped. */
  async function itemsOf(pack: Pick<PackRecord, 'wumpusIds'>): Promise<WumpusRecord[]> {
    const records = await Promise.all(pack.wumpusIds.map((id) => store.wumpuses.get(id)))
    return records.filter((record): record is WumpusRecord => record !== undefined)
  }

  /** The pack, when the viewer may open it: a private pack is its owner's and admins' only. */
  async function getPack(id: string, viewer: Viewer): Promise<PackRecord> {
    const pack = await store.packs.get(id)
    if (!pack || (pack.visibility === 'private' && !isOwner(pack, viewer) && !isAdminViewer(viewer))) throw notFound(NO_SUCH_PACK)
    return pack
  }

  /**
   * Whether the actor may change the pack (else throws, as getPack for a pack they may not open), and
   * whether that is audited: an admin's change to a public pack or to someone else's personal pack.
   */
  function mayChange(pack: PackRecord, actor: Actor): { audited: boolean } {
    if (isOwner(pack, actor)) return { audited: false }
    if (isAdminViewer(actor)) return { audited: true }
    if (pack.visibility === 'private') throw notFound(NO_SUCH_PACK)
    throw forbidden(pack.visibility === 'public' ? 'Only admins can do this' : 'Only its owner can change this pack')
  }

  /** The pack's animations as the viewer sees them: without the private remixes they may not see, nor hidden ones (for anyone). */
  const visibleItems = async (pack: Pick<PackRecord, 'wumpusIds'>, viewer: Viewer) =>
    (await itemsOf(pack)).filter((record) => !record.hidden && canSee(record, viewer))

  /**
   * The animations the ids name, in order; unknown ids are refused, all of them named. A personal pack
   * holds its owner's own remixes only, a public pack none (a private remix of someone else's is unknown).
   */
  async function existing(ids: string[], owner: string | undefined): Promise<WumpusRecord[]> {
    const records = await Promise.all(ids.map((id) => store.wumpuses.get(id)))
    const foreign = (record: WumpusRecord) => record.remix !== undefined && record.u_email !== owner
    const unknown = ids.filter((_, i) => !records[i] || (foreign(records[i]) && records[i].remix!.visibility === 'private'))
    if (unknown.length > 0) {
      throw invalid(
        `${unknown.length === 1 ? 'One sticker does' : `${unknown.length} stickers do`} not exist (any more): ${unknown.join(', ')}`,
        {
          field: 'wumpusIds',
          unknown,
        },
      )
    }
    const remixes = ids.filter((_, i) => foreign(records[i]!))
    if (remixes.length > 0) {
      throw invalid(owner ? 'A pack can hold your own remixes only' : 'Public packs hold the gallery’s stickers, not remixes', {
        field: 'wumpusIds',
        remixes,
      })
    }
    return records as WumpusRecord[]
  }

  /**
   * Who chat apps name as the pack's publisher: a personal pack's maker, by display name, for those who
   * may see whose it is (its owner and admins); the gallery for public packs and everyone else.
   */
  async function publisherFor(pack: PackRecord, viewer: Viewer): Promise<string> {
    if (!isOwner(pack, viewer) && !(pack.visibility !== 'public' && isAdminViewer(viewer))) return PACK_PUBLISHER
    return (await store.users.get(pack.createdBy))?.user_name.trim() || PACK_PUBLISHER
  }

  /** The pack as the viewer sees it: a personal pack's owner is shown to them and admins only. */
  async function viewOf(pack: PackRecord, viewer: Viewer, items?: WumpusRecord[]): Promise<PackView> {
    const found = pack.coverWumpusId
      ? (items?.find((item) => item._id === pack.coverWumpusId) ?? (await store.wumpuses.get(pack.coverWumpusId)))
      : undefined
    return {
      pack,
      cover: found && !found.hidden && canSee(found, viewer) ? found : undefined,
      createdBy: pack.visibility === 'public' || isOwner(pack, viewer) || isAdminViewer(viewer) ? pack.createdBy : null,
    }
  }

  return {
    async list(query) {
      const page = await store.packs.list(query)
      return { ...page, items: await Promise.all(page.items.map((pack) => viewOf(pack, undefined))) }
    },

    async listPersonal(owner, query) {
      const page = await store.packs.listPersonal(owner, query)
      const viewer = { email: owner, role: 'user' } as const
      return { ...page, items: await Promise.all(page.items.map((pack) => viewOf(pack, viewer))) }
    },

    async detail(id, viewer) {
      const pack = await getPack(id, viewer)
      const items = await visibleItems(pack, viewer)
      return {
        ...(await viewOf(pack, viewer, items)),
        items,
        plans: PLATFORMS.map((platform) => planZip(pack, items, platform)),
        imports: IMPORT_FORMATS.map((format) => planImport(pack, items, format)),
      }
    },

    async create(actor, input) {
      const items = await existing(input.wumpusIds, undefined)
      const pack = await store.packs.insert({ ...input, visibility: 'public', createdBy: actor })
      await audit.record({
        actor,
        action: 'pack.create',
        target: { type: 'pack', id: pack.id, name: pack.name },
        changes: packChanges(undefined, pack, items),
      })
      return viewOf(pack, undefined, items)
    },

    async createPersonal(owner, input) {
      const items = await existing(input.wumpusIds, owner)
      const pack = await store.packs.insertPersonal({ ...input, createdBy: owner }, { max: PERSONAL_PACKS_MAX })
      if (pack === 'full') {
        throw conflict(`You have ${PERSONAL_PACKS_MAX} packs, the most one can keep: delete one to make another`, {
          reason: 'packs-full',
          max: PERSONAL_PACKS_MAX,
        })
      }
      return viewOf(pack, { email: owner, role: 'user' }, items)
    },

    async update(actor, id, patch, options = {}) {
      const before = await getPack(id, actor)
      const { audited } = mayChange(before, actor)
      if (patch.visibility !== undefined && before.visibility === 'public') {
        throw invalid('Public packs are always public: only personal packs are private or shared by link', { field: 'visibility' })
      }
      const newItems = patch.wumpusIds ? await existing(patch.wumpusIds, before.visibility === 'public' ? undefined : before.createdBy) : []
      if (patch.coverWumpusId && !(patch.wumpusIds ?? before.wumpusIds).includes(patch.coverWumpusId)) {
        throw invalid('The cover must be one of the pack’s stickers', { field: 'coverWumpusId' })
      }
      // An edit cannot claim a time to come: it would win over every edit made until then.
      const now = Date.now()
      const editedAt = new Date(Math.min(options.editedAt?.getTime() ?? now, now))
      const updated = await store.packs.update(id, patch, { editedAt })
      if (!updated) throw notFound(NO_SUCH_PACK)
      const items = [...(await itemsOf(before)), ...newItems]
      onPublicChange?.(id, 'edited')
      const changes = packChanges(before, updated.pack, items)
      if (audited && changes.length > 0)
        await audit.record({ actor: actor.email, action: 'pack.edit', target: { type: 'pack', id, name: updated.pack.name }, changes })
      return { ...(await viewOf(updated.pack, actor, items)), superseded: updated.superseded }
    },

    async remove(actor, id) {
      const pack = await store.packs.get(id)
      if (!pack) return 0
      const { audited } = mayChange(pack, actor)
      const deleted = await store.packs.delete(pack.id)
      if (deleted > 0) onPublicChange?.(pack.id, 'deleted')
      if (audited && deleted > 0) {
        await audit.record({
          actor: actor.email,
          action: 'pack.delete',
          target: { type: 'pack', id: pack.id, name: pack.name },
          changes: packChanges(pack, undefined, await itemsOf(pack)),
        })
      }
      return deleted
    },

    async zip(id, platform, viewer, { part, asMaker = false, archive } = {}) {
      // A personal pack's keyed URL (shown to its maker and admins) downloads it as its maker would.
      const personal = asMaker ? await store.packs.get(id) : undefined
      if (personal && personal.visibility !== 'public') viewer = { email: personal.createdBy, role: 'user' }
      const pack = await getPack(id, viewer)
      const plan = planZip(pack, await visibleItems(pack, viewer), platform)
      if (!plan.fits) throw doesNotFit(plan.message!, { platform, stickers: plan.entries.length, missing: plan.left.length })
      return {
        ...(await writeZip(store, logger, pack, plan, part, await publisherFor(pack, viewer), archive)),
        visibility: pack.visibility,
      }
    },

    async importArchive(id, format, viewer, { asMaker = false, context }) {
      const personal = asMaker ? await store.packs.get(id) : undefined
      if (personal && personal.visibility !== 'public') viewer = { email: personal.createdBy, role: 'user' }
      const pack = await getPack(id, viewer)
      const plan = planImport(pack, await visibleItems(pack, viewer), format)
      if (!plan.fits) throw doesNotFit(plan.message!, { format, stickers: plan.entries.length, missing: plan.skipped.length })
      const archive = await writeImport(store, logger, pack, plan, { ...context, publisher: await publisherFor(pack, viewer) })
      return { ...archive, visibility: pack.visibility }
    },

    async pleromaFile(id, file, context) {
      // Another server asks with no session: what a signed-out visitor may open, and nothing more.
      const pack = await getPack(id, undefined)
      const plan = planImport(pack, await visibleItems(pack, undefined), 'pleroma')
      return {
        body: await pleromaFile(store, logger, pack, plan, file, { ...context, publisher: PACK_PUBLISHER }),
        visibility: pack.visibility,
      }
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
    visibility: pack.visibility,
  }
}

function packChanges(before: PackRecord | undefined, after: PackRecord | undefined, items: WumpusRecord[]): AuditChange[] {
  return fieldChanges(before ? packFields(before, items) : {}, after ? packFields(after, items) : {})
}
