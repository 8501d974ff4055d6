import { CONTENT_TYPE, MEDIA_FORMATS, type MediaFormat } from '../../../contract/limits'
import type { CreateWumpus, UpdateWumpus } from '../../../contract/wumpus-write'
import { isAdmin } from './roles'
import type { Viewer } from '../domain/viewer'
import type { CreditEditFields, FileRef, Store, WumpusRecord } from '../store/port'
import { type AnimationFilesDeps, inspectAs, limitOf, linkedLottie, renderAndStore, storeAnimationFile } from './animation-files'
import { type AuditLog, wumpusChanges } from './audit'
import type { ColourSlotService } from './colour-slots'
import type { DerivedMediaService } from './derived-media'
import { findVisibleWumpus, findWumpus, noSuchAnimation } from './find-wumpus'
import { creditedLottie, recredited } from './lottie-credit'
import { stickerMaker } from './sticker-credits'
import type { RemixService } from './remixes'
import { conflict, forbidden, invalid, notFound, tooLarge, wrongType } from '../domain/errors'

/**
 * The animations' rules: who publishes, edits and deletes, and that nothing is half-written (files stored
 * for a publish that fails are removed; files an edit or a delete leaves behind go with it), with each
 * change in the audit log and the previews and platform exports started, replaced or removed.
 */
export interface WumpusesDeps extends AnimationFilesDeps {
  audit: AuditLog
  derivedMedia: DerivedMediaService
  /** An original's colour slots are read (in the render worker) and stored when it comes and when its Lottie changes. */
  colourSlots: Pick<ColourSlotService, 'refresh'>
  /** A remix opened after its original's Lottie changed is made again; an original's remixes go with it. */
  remixes: Pick<RemixService, 'remakeIfStale' | 'deleteAllOf'>
  /** Told of each edit and deletion of an animation (the Telegram sets holding it follow: services/telegram-sets.ts). */
  onChange?: (wumpusId: string) => void
}

export interface WumpusService {
  /**
   * The animation with this id when the viewer may see it, else NOT_FOUND (undefined id: not even well
   * formed). A remix whose original changed since it was made starts being made again.
   */
  findVisible(id: string | undefined, viewer: Viewer): Promise<WumpusRecord>
  /** How many remixes were made of this animation. */
  countRemixes(id: string): Promise<number>
  /**
   * An admin publishes an animation (publishWumpus); `actor`, when another than the publisher, is the admin
   * who publishes it in the publisher's name (a submission's reviewer: services/submissions.ts).
   */
  publish(
    publisher: { email: string; name: string },
    fields: PublishedFields,
    files: PublishedFiles,
    spend: SpendLimit,
    options?: { actor?: string },
  ): Promise<WumpusRecord>
  /** The animation `editor` may edit: its uploader's (a remix's owner's), or any for an admin; NOT_FOUND before FORBIDDEN. */
  editable(editor: string, id: string | undefined): Promise<WumpusRecord>
  /** Applies an edit to an animation `editable` gave (editWumpus). */
  edit(editor: string, record: WumpusRecord, patch: UpdateWumpus): Promise<WumpusRecord>
  /** Throws unless `actor` may delete the animation: admins any (an unknown one too), a remix's owner their remix; answers it if known. */
  mayDelete(actor: string, id: string | undefined): Promise<WumpusRecord | undefined>
  /** Deletes an animation with its files, and an original's remixes with it; answers how many were deleted (0 or 1). */
  delete(actor: string, id: string | undefined): Promise<number>
}

export function createWumpusService(deps: WumpusesDeps): WumpusService {
  const { store } = deps
  return {
    findVisible: async (id, viewer) => {
      const record = await findVisibleWumpus(store, id, viewer)
      if (record.remix) void deps.remixes.remakeIfStale(record)
      return record
    },
    countRemixes: (id) => store.wumpuses.countRemixes(id),
    publish: (publisher, fields, files, spend, options) => publishWumpus(deps, publisher, fields, files, spend, options?.actor),
    editable: (editor, id) => editableWumpus(store, editor, id),
    edit: (editor, record, patch) => editWumpus(deps, editor, record, patch),
    mayDelete: (actor, id) => mayDelete(store, actor, id),
    delete: (actor, id) => deleteWumpus(deps, actor, id),
  }
}

/** The text fields of a publish. */
export type PublishedFields = Pick<
  CreateWumpus,
  'name' | 'description' | 'tags' | 'emoji' | 'keywords' | 'licence' | 'credit' | 'sensitive'
>

/** A file sent in a multipart publish, not yet judged. */
export interface SentFile {
  format: MediaFormat
  bytes: Uint8Array
  name: string
}

/** The files of a publish: sent with it (the Lottie as a file or a link), or uploaded before and named by id. */
export type PublishedFiles = { sent: SentFile[]; lottieUrl?: string } | { ids: Record<MediaFormat, string> }

/** Counts one use of a rate-limited step (fetching a linked Lottie, rendering) for the caller; throws 429 when over. */
export type SpendLimit = (name: 'lottieLink' | 'render') => Promise<void>

/** An admin publishes an animation: its files are judged and stored (or checked, when named by id), then the record made. */
async function publishWumpus(
  deps: WumpusesDeps,
  publisher: { email: string; name: string },
  fields: PublishedFields,
  files: PublishedFiles,
  spend: SpendLimit,
  actor = publisher.email,
): Promise<WumpusRecord> {
  const { store } = deps
  const me = publisher.email
  const u_name = (await store.users.get(me))?.user_name || publisher.name
  // Nothing half-written: files stored for this request go when the record does not come.
  const stored: string[] = []
  try {
    const refs =
      'ids' in files
        ? ((await checkedFileRefs(store, me, files.ids)) as Record<MediaFormat, FileRef>)
        : await storeSentFiles(deps, me, files, spend, stored)
    // The stored Lottie names its maker (services/lottie-credit.ts); the one it replaces goes once the record is written.
    const uncredited = refs.lottie
    const credited = await creditedLottie(store, uncredited, { credit: fields.credit ?? '', u_name }, me)
    if (credited) {
      stored.push(credited.id)
      refs.lottie = credited
    }
    const record = await store.wumpuses.insert({
      name: fields.name,
      description: fields.description,
      tags: fields.tags,
      emoji: fields.emoji,
      keywords: fields.keywords,
      licence: fields.licence,
      credit: fields.credit,
      sensitive: fields.sensitive,
      files: refs,
      u_email: me,
      u_name,
    })
    await deps.audit.record({
      actor,
      action: 'wumpus.publish',
      target: { type: 'wumpus', id: record._id, name: record.name },
      changes: wumpusChanges(undefined, record),
    })
    if (credited) await store.files.delete(uncredited.id)
    // Previews and exports are made in the background; GET /api/wumpus/{id}/stickers follows them.
    void deps.derivedMedia.refresh(record._id)
    void deps.colourSlots.refresh(record)
    return record
  } catch (error) {
    await Promise.all(stored.map((id) => store.files.delete(id)))
    throw error
  }
}

/** Judges every sent file, renders what is missing from the Lottie, stores them; each stored id lands in `stored`. */
async function storeSentFiles(
  deps: WumpusesDeps,
  owner: string,
  files: { sent: SentFile[]; lottieUrl?: string },
  spend: SpendLimit,
  stored: string[],
) {
  const { store, config } = deps
  const refs: Partial<Record<MediaFormat, FileRef>> = {}
  const inspected: SentFile[] = []
  for (const file of files.sent) {
    if (file.bytes.length > limitOf(config, file.format)) throw tooLarge(`The ${file.format} file is too large`)
    inspectAs(file.bytes, file.format)
    inspected.push(file)
  }
  if (!inspected.some((f) => f.format === 'lottie')) {
    if (!files.lottieUrl) throw invalid('Give the Lottie as a file or a link', [{ path: 'lottie', message: 'Enter lottie json link' }])
    await spend('lottieLink')
    const linked = await linkedLottie(deps, files.lottieUrl)
    inspectAs(linked.bytes, 'lottie')
    inspected.push({ format: 'lottie', ...linked })
  }
  // Stored side by side; each one stored is known, so a failure of another removes it.
  const storing = await Promise.allSettled(
    inspected.map(async (file) => {
      const info = await storeAnimationFile(store, file.bytes, file.format, file.name, owner)
      stored.push(info.id)
      refs[file.format] = { id: info.id, filename: info.filename }
    }),
  )
  const failed = storing.find((result) => result.status === 'rejected')
  if (failed) throw failed.reason
  if (!refs.gif || !refs.apng) {
    const lottie = inspected.find((f) => f.format === 'lottie')!
    await spend('render')
    const rendered = await renderAndStore(store, lottie.bytes, lottie.name, owner, deps.logger)
    for (const format of ['gif', 'apng'] as const) {
      const { file } = rendered[format]
      stored.push(file.id)
      if (refs[format]) await store.files.delete(file.id)
      else refs[format] = { id: file.id, filename: file.filename }
    }
  }
  return refs as Record<MediaFormat, FileRef>
}

/** The animation `editor` may edit: its uploader's (a remix's owner's), or any for an admin; 404 before 403. */
async function editableWumpus(store: Store, editor: string, id: string | undefined): Promise<WumpusRecord> {
  const record = await findWumpus(store, id)
  if (record.u_email !== editor && !(await isAdmin(store, editor))) {
    if (record.remix?.visibility === 'private') throw noSuchAnimation()
    throw forbidden('Only admins and the uploader can edit this animation')
  }
  return record
}

/** Throws unless `actor` may delete the animation: admins any (an unknown one too), a remix's owner their remix. */
async function mayDelete(store: Store, actor: string, id: string | undefined): Promise<WumpusRecord | undefined> {
  const record = id === undefined ? undefined : await store.wumpuses.get(id)
  if (record?.remix && record.u_email === actor) return record
  if (await isAdmin(store, actor)) return record
  if (record?.remix?.visibility === 'private') throw noSuchAnimation()
  throw forbidden('Only admins can do this')
}

/** How often an edit is made again on a fresh read when another edit changed the files meanwhile. */
const EDIT_ATTEMPTS = 5

/**
 * Applies an edit to an animation `editableWumpus` gave; the files it replaced are removed. The record
 * is written only while its files are still the ones the edit started from: when another edit changed
 * them meanwhile, this one is made again on a fresh read, so it neither writes back a file the other
 * removed nor removes one the other put in.
 */
async function editWumpus(deps: WumpusesDeps, editor: string, record: WumpusRecord, patch: UpdateWumpus): Promise<WumpusRecord> {
  const { store } = deps
  if (record.remix && patch.files) {
    throw invalid('A remix’s files are made from its recipe: make a new remix instead', { field: 'files' })
  }
  const replaced = patch.files ? await checkedFileRefs(store, editor, patch.files) : {}
  // A new Lottie names the maker as the edit leaves them credited (services/lottie-credit.ts).
  const uncredited = replaced.lottie
  const credited =
    uncredited && (await creditedLottie(store, uncredited, { credit: patch.credit ?? record.credit, u_name: record.u_name }, editor))
  if (credited) replaced.lottie = credited
  // The edit's fields other than its files and credit, as the store takes them.
  const fields: CreditEditFields = {
    ...(patch.name === undefined ? {} : { name: patch.name }),
    ...(patch.description === undefined ? {} : { description: patch.description }),
    ...(patch.tags === undefined ? {} : { tags: patch.tags }),
    ...(patch.emoji === undefined ? {} : { emoji: patch.emoji }),
    ...(patch.keywords === undefined ? {} : { keywords: patch.keywords }),
    ...(patch.licence === undefined ? {} : { licence: patch.licence }),
    ...(patch.sensitive === undefined ? {} : { sensitive: patch.sensitive }),
  }
  let before = record
  for (let attempt = 1; ; attempt++) {
    // A new maker with the same Lottie: the Lottie and its Telegram files are rewritten with the credit and the
    // edit's other fields in one write.
    const recredit = !patch.files && !before.remix && patch.credit !== undefined && makerChanges(before, patch.credit)
    const updated = recredit
      ? await recredited(store, before, patch.credit!, fields)
      : await store.wumpuses.update(
          before._id,
          {
            ...fields,
            ...(patch.credit === undefined ? {} : { credit: patch.credit }),
            ...(patch.files ? { files: { ...before.files, ...replaced } } : {}),
          },
          { whileFiles: before.files },
        )
    if (updated) {
      if (credited && uncredited) await store.files.delete(uncredited.id)
      return edited(deps, editor, before, updated)
    }
    before = await findWumpus(store, before._id)
    if (attempt === EDIT_ATTEMPTS) throw conflict('This animation is being changed by someone else; try again')
  }
}

/** Whether crediting `credit` names another maker than the record does now (an empty credit names its contributor). */
function makerChanges(record: WumpusRecord, credit: string): boolean {
  return stickerMaker({ credit, u_name: record.u_name }) !== stickerMaker(record)
}

/** After an edit was written: the audit entry, the files it replaced removed, the derived media and colour slots followed. */
async function edited(deps: WumpusesDeps, editor: string, before: WumpusRecord, updated: WumpusRecord): Promise<WumpusRecord> {
  const changes = wumpusChanges(before, updated)
  // The Activity log is the admins' record of the gallery: one's own remix is not part of it.
  if (changes.length > 0 && !(updated.remix && updated.u_email === editor)) {
    await deps.audit.record({
      actor: editor,
      action: 'wumpus.edit',
      target: { type: 'wumpus', id: updated._id, name: updated.name },
      changes,
    })
  }
  // The files this edit replaced belong to nothing any more (the write was made from `before`'s files).
  for (const format of MEDIA_FORMATS) {
    if (before.files[format].id !== updated.files[format].id) await deps.store.files.delete(before.files[format].id)
  }
  // Its remixes are made again when next opened (RemixService.remakeIfStale), not all at once here.
  await deps.derivedMedia.filesChanged(before, updated)
  if (before.files.lottie.id !== updated.files.lottie.id) void deps.colourSlots.refresh(updated)
  deps.onChange?.(updated._id)
  return updated
}

/**
 * Deletes an animation (mayDelete says who may) with its files, and an original's remixes with it; answers
 * how many were deleted (0 or 1).
 */
async function deleteWumpus(
  deps: Pick<WumpusesDeps, 'store' | 'audit' | 'derivedMedia' | 'remixes' | 'onChange'>,
  actor: string,
  id: string | undefined,
): Promise<number> {
  const { store } = deps
  const record = id === undefined ? undefined : await store.wumpuses.get(id)
  const deletedCount = record ? await store.wumpuses.delete(record._id) : 0
  if (record && deletedCount > 0 && !(record.remix && record.u_email === actor)) {
    await deps.audit.record({
      actor,
      action: 'wumpus.delete',
      target: { type: 'wumpus', id: record._id, name: record.name },
      changes: wumpusChanges(record, undefined),
    })
  }
  if (record && deletedCount > 0) {
    await Promise.all(MEDIA_FORMATS.map((format) => store.files.delete(record.files[format].id)))
    await deps.derivedMedia.removed(record)
    if (!record.remix) await deps.remixes.deleteAllOf(record._id)
    deps.onChange?.(record._id)
  }
  return deletedCount
}

/**
 * File ids named in a JSON body: each must be a file this user uploaded for an animation, of the
 * right format, and not part of another animation (deleting that one would take it away).
 */
async function checkedFileRefs<F extends MediaFormat>(
  store: Store,
  owner: string,
  ids: Partial<Record<F, string>>,
): Promise<Partial<Record<F, FileRef>>> {
  const refs: Partial<Record<F, FileRef>> = {}
  for (const [format, id] of Object.entries(ids) as [F, string][]) {
    const info = await store.files.info(id)
    if (!info) throw notFound(`No uploaded ${format} file with this id`, { format })
    if (info.contentType !== CONTENT_TYPE[format]) throw wrongType(`The ${format} file id names a ${info.contentType} file`, { format })
    if (info.purpose !== 'animation' || info.owner !== owner)
      throw forbidden(`Use a ${format} file you uploaded for an animation`, { format })
    if (await store.wumpuses.usesFile(id)) throw conflict(`That ${format} file already belongs to an animation`, { format })
    refs[format] = { id: info.id, filename: info.filename }
  }
  return refs
}
