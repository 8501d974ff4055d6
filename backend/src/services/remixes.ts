// Remixes: a person's own version of a sticker, made from a recipe (contract/remix/recipe.ts) applied to
// the original's Lottie (the HTTP contract is contract/remix/remix-api.ts).
//  - Its GIF, APNG and Lottie are made before the answer; previews and chat app files follow through the
//    derived media queue (services/derived-media.ts), like a new animation's.
//  - Private to its owner (and admins) unless shared by link: a private remix is as unknown to anyone else,
//    on every path that shows an animation or its files. Its file URLs carry keys (http/file-keys.ts) of a
//    generation that each change of sharing and each renewal by its owner moves on.
//  - Made again lazily after the original's Lottie changes: when someone next opens it (remakeIfStale), once
//    per change of the original, so an edit costs only the remixes people look at; removed with the original.
import { REMIXES_MAX } from '../../../contract/limits'
import { colourPresets } from '../../../contract/remix/colours'
import { isObject, type Lottie } from '../../../contract/remix/lottie-walk'
import { captionRefusal } from '../../../contract/remix/caption-font'
import { applyRecipe, type ColourChoices, type Recipe } from '../../../contract/remix/recipe'
import type { RemixVisibility } from '../../../contract/remix/remix-api'
import { defaultRemixName } from '../../../contract/remix/remix-name'
import { describeRecipe } from '../../../contract/remix/recipe-text'
import type { Actor, Viewer } from '../domain/viewer'
import { captionFont } from '../media/render/caption-font'
import type { FileRef, RemixInfo, Store, WumpusPage, WumpusRecord } from '../store/port'
import { findVisibleWumpus } from './find-wumpus'
import { type AnimationFilesDeps, checkedAnimationFile, renderAndStore, storeAnimationFile } from './animation-files'
import type { ColourSlotService } from './colour-slots'
import type { DerivedMediaService } from './derived-media'
import { fileStem } from './file-names'
import { createRemixBudget, type RemixBudget } from './remix-budget'
import { createTwinIndex, mayShareFiles, sha256Hex, type TwinIndex } from './twin-files'
import { DomainError, conflict, forbidden, invalid, notFound } from '../domain/errors'

export interface RemixesDeps extends AnimationFilesDeps {
  derivedMedia: DerivedMediaService
  /** What remixes may render (default: from config's REMIX_RENDERS_PER_DAY and REMIX_RENDER_SHARE). */
  budget?: RemixBudget
  /** The originals' colour slots, as stored (read in the render worker when missing). */
  colourSlots: Pick<ColourSlotService, 'of'>
}

/** The service's own parts beside its deps: the render budget and the recent remixes by their Lottie's bytes. */
type RemixWork = RemixesDeps & { budget: RemixBudget; twins: TwinIndex }

export interface RemixService {
  /** A remix of an original for its owner, named `name` or "{original}, your version" (createRemix: its refusals, its files made, stored private). */
  create(owner: Actor & { name: string }, originalId: string | undefined, recipe: Recipe, name?: string): Promise<WumpusRecord>
  /** The remix `viewer` may share, else NOT_FOUND (not a remix, or someone else's private one) or FORBIDDEN (someone else's). */
  own(viewer: Actor, id: string | undefined): Promise<WumpusRecord & Required<Pick<WumpusRecord, 'remix'>>>
  /** Its owner shares a remix by link, or makes it private again; a change gives its files new keys. */
  share(viewer: Actor, id: string | undefined, visibility: RemixVisibility): Promise<WumpusRecord>
  /** Its owner gives its files new keys: the keyed URLs shown before open nothing any more. */
  renewKeys(viewer: Actor, id: string | undefined): Promise<WumpusRecord>
  /** One's own remixes, newest first. */
  listOwn(owner: string, page: { limit: number; cursor?: string }): Promise<WumpusPage>
  /** The colour slots a recipe can change and presets (GET /api/wumpus/{id}/colours); a remix has none of its own. */
  colourChoices(record: WumpusRecord): Promise<ColourChoices>
  /**
   * A remix someone opens whose original's Lottie changed since it was made is made again in the
   * background (at the render queue's lowest priority); it answers as it is meanwhile. One remake at a
   * time per remix, and one that failed is not tried again for the same Lottie of its original. Resolves
   * when done (tests wait for it); never rejects.
   */
  remakeIfStale(record: WumpusRecord): Promise<'made' | 'current' | 'gone' | 'failed'>
  /** With an original: every remix of it goes too. */
  deleteAllOf(originalId: string): Promise<void>
}

export function createRemixService(given: RemixesDeps): RemixService {
  const deps: RemixWork = {
    ...given,
    twins: createTwinIndex(),
    budget:
      given.budget ??
      createRemixBudget({
        store: given.store,
        derivedMedia: given.derivedMedia,
        perDay: given.config.remixRendersPerDay,
        share: given.config.remixRenderShare,
        factor: given.config.rateLimitFactor,
      }),
  }
  const { store } = deps
  return {
    create: (owner, originalId, recipe, name) => createRemix(deps, owner, originalId, recipe, name),
    own: (viewer, id) => ownRemix(store, viewer, id),
    share: (viewer, id, visibility) => shareRemix(store, viewer, id, visibility),
    renewKeys: (viewer, id) => renewRemixKeys(store, viewer, id),
    listOwn: (owner, page) => listOwnRemixes(store, owner, page),
    colourChoices: (record) => colourChoicesOf(deps, record),
    remakeIfStale: createLazyRemakes(deps),
    deleteAllOf: (originalId) => deleteRemixesOf(deps, originalId),
  }
}

/** Remixes read at a time when going through many. */
const REMIX_PAGE = 50
/** How often a remake starts over when the remix changed while it was being made. */
const REMAKE_ATTEMPTS = 3

export const remixOfRemix = () => conflict('This is a remix: make yours from the original sticker instead', { reason: 'remix-of-remix' })

/** The Lottie of a stored file; one that does not read as a Lottie has no layers (and no colours). */
function readLottie(bytes: Uint8Array): Lottie {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes))
    if (isObject(value)) return value as Lottie
  } catch {
    // Not JSON: an animation stored before its file was checked.
  }
  return { fr: 30, ip: 0, op: 0, w: 0, h: 0, layers: [] }
}

/** The Lottie of this file id, or undefined when the file is gone. */
async function lottieOf(store: Store, fileId: string): Promise<Lottie | undefined> {
  const file = await store.files.read(fileId)
  return file ? readLottie(file.bytes) : undefined
}

/**
 * The colour slots a recipe can change and presets (GET /api/wumpus/{id}/colours); a remix has none of its own.
 * The slots are the original's stored ones (services/colour-slots.ts); the presets are worked out from them.
 */
async function colourChoicesOf(deps: Pick<RemixesDeps, 'colourSlots'>, record: WumpusRecord): Promise<ColourChoices> {
  if (record.remix) throw remixOfRemix()
  const slots = await deps.colourSlots.of(record)
  return { slots, presets: colourPresets(slots) }
}

/** The edited Lottie of a recipe, as a remix's files are made from it (outlined only when the recipe says so). */
export function remixLottie(original: Lottie, recipe: Recipe, outline = recipe.outline ?? false): Lottie {
  return applyRecipe(original, recipe, { font: captionFont(), outline })
}

/** How makeRemixFiles may save a render: the recent remixes by their Lottie's bytes, and what to do before rendering. */
interface RemixMaking {
  twins: TwinIndex
  /** Called only when the GIF and APNG must be rendered (not when a twin's are copied): the render budget's admission. */
  beforeRender?: () => Promise<void>
  /** The time that rendering took, succeeded or not. */
  afterRender?: (ms: number) => void
}

/**
 * Makes the remix's GIF, APNG and Lottie from the original's Lottie: the edited Lottie is judged like an
 * uploaded one (size, structure, complexity); GIF and APNG are copies of a twin's (a remix whose Lottie has
 * the same bytes, twin-files.ts) or come from the render queue (busy when full). Every stored id lands in
 * `stored`, so the caller removes them when the record does not come. Answers the files and the Lottie's
 * sha256 (twins are remembered by it).
 */
async function makeRemixFiles(
  deps: AnimationFilesDeps,
  making: RemixMaking,
  remixName: string,
  originalLottie: Lottie,
  recipe: Recipe,
  owner: string,
  stored: string[],
): Promise<{ files: WumpusRecord['files']; key: string }> {
  const bytes = new TextEncoder().encode(JSON.stringify(remixLottie(originalLottie, recipe)))
  checkedAnimationFile(deps.config, 'lottie', bytes)
  const name = fileStem(remixName)
  const key = sha256Hex(bytes)
  const ref = ({ id, filename }: FileRef): FileRef => ({ id, filename })
  let made = await copiedTwinFiles(deps, making.twins, key, name, owner, stored)
  if (!made) {
    await making.beforeRender?.()
    const started = performance.now()
    try {
      const rendered = await renderAndStore(deps.store, bytes, name, owner, deps.logger)
      stored.push(rendered.gif.file.id, rendered.apng.file.id)
      made = { gif: ref(rendered.gif.file), apng: ref(rendered.apng.file) }
    } finally {
      making.afterRender?.(performance.now() - started)
    }
  }
  const lottie = await storeAnimationFile(deps.store, bytes, 'lottie', name, owner)
  stored.push(lottie.id)
  return { files: { ...made, lottie: ref(lottie) }, key }
}

/** Copies of the GIF and APNG of a remix whose Lottie has these bytes (`key`), when there is one `owner` may take. */
async function copiedTwinFiles(
  deps: AnimationFilesDeps,
  twins: TwinIndex,
  key: string,
  name: string,
  owner: string,
  stored: string[],
): Promise<Pick<WumpusRecord['files'], 'gif' | 'apng'> | undefined> {
  const twinId = twins.get(key)
  const twin = twinId ? await deps.store.wumpuses.get(twinId) : undefined
  if (!twin?.remix || !mayShareFiles(twin, owner)) return undefined
  const lottie = await deps.store.files.info(twin.files.lottie.id)
  if (lottie?.sha256 !== key) return undefined
  const copies: Partial<Pick<WumpusRecord['files'], 'gif' | 'apng'>> = {}
  for (const format of ['gif', 'apng'] as const) {
    const file = await deps.store.files.read(twin.files[format].id)
    if (!file) return undefined
    const copy = await storeAnimationFile(deps.store, file.bytes, format, name, owner)
    stored.push(copy.id)
    copies[format] = { id: copy.id, filename: copy.filename }
  }
  return copies as Pick<WumpusRecord['files'], 'gif' | 'apng'>
}

/** A remix's description: whose version of what it is, and what it changes. */
function remixDescription(original: WumpusRecord, maker: string, recipe: Recipe): string {
  const changes = describeRecipe(recipe, recipe.outline ?? false)
  return `A remix of ${original.name}${maker ? ` by ${maker}` : ''}: ${changes}.`
}

/**
 * A remix of `originalId` for `owner`, named `name` (by default "{original}, your version"): refused for a remix (remix-of-remix), at REMIXES_MAX
 * (remixes-full), for colours of slots the original does not have (unknown-colour-slot), for caption
 * characters the font cannot draw (caption-characters) and past the render budget (remix-budget.ts),
 * then made (see makeRemixFiles) and stored, private.
 */
async function createRemix(
  deps: RemixWork,
  owner: Actor & { name: string },
  originalId: string | undefined,
  recipe: Recipe,
  name?: string,
): Promise<WumpusRecord> {
  const { store } = deps
  const original = await findVisibleWumpus(store, originalId, owner)
  if (original.remix) throw remixOfRemix()
  // Cheap refusals first: a full account or a recipe that does not fit the sticker renders nothing.
  const full = () =>
    conflict(`You have ${REMIXES_MAX} remixes, the most one can keep: delete one to make another`, {
      reason: 'remixes-full',
      max: REMIXES_MAX,
    })
  if ((await store.wumpuses.listRemixes({ owner: owner.email, limit: 1 })).total >= REMIXES_MAX) throw full()
  // The original's stored slots (read in the render worker if it has none yet).
  const slots = new Set((await deps.colourSlots.of(original)).map((slot) => slot.id))
  const unknown = Object.keys(recipe.colours ?? {}).filter((slot) => !slots.has(slot))
  if (unknown.length > 0) {
    throw invalid(`This sticker has no colour slot ${unknown.join(', ')}`, {
      reason: 'unknown-colour-slot',
      field: 'colours',
      unknown,
      issues: unknown.map((slot) => ({ path: `colours.${slot}`, message: 'Not a colour slot of this sticker' })),
    })
  }
  const refusal = recipe.caption ? captionRefusal(recipe.caption.text, captionFont()) : undefined
  if (recipe.caption && refusal) {
    throw invalid(refusal, {
      reason: 'caption-characters',
      field: 'caption.text',
      characters: captionFont().missing(recipe.caption.text),
    })
  }
  const originalLottie = await lottieOf(store, original.files.lottie.id)
  if (!originalLottie) throw notFound('The animation’s Lottie file is missing')

  const stored: string[] = []
  try {
    const remixName = name ?? defaultRemixName(original.name)
    const { files, key } = await makeRemixFiles(
      deps,
      {
        twins: deps.twins,
        // Last: a refusal above spends nothing of the account's day; a twin's copies spend none of it.
        beforeRender: () => deps.budget.admit(owner.email),
        afterRender: (ms) => deps.budget.spent(ms),
      },
      remixName,
      originalLottie,
      recipe,
      owner.email,
      stored,
    )
    const u_name = (await store.users.get(owner.email))?.user_name || owner.name
    const remix = await store.wumpuses.insertRemix(
      {
        name: remixName,
        description: remixDescription(original, u_name, recipe),
        tags: original.tags,
        emoji: original.emoji,
        keywords: original.keywords,
        u_email: owner.email,
        u_name,
        files,
        remix: { of: original._id, recipe, source: original.files.lottie.id, visibility: 'private' },
      },
      { max: REMIXES_MAX },
    )
    if (remix === 'full') throw full()
    deps.twins.remember(key, remix._id)
    void deps.derivedMedia.refresh(remix._id, { priority: 'remix', account: owner.email })
    return remix
  } catch (error) {
    await Promise.all(stored.map((id) => store.files.delete(id).catch(() => false)))
    throw error
  }
}

/** The remix `owner` may share, else 404 (not a remix, or someone else's private one) or 403 (someone else's). */
async function ownRemix(
  store: Store,
  viewer: NonNullable<Viewer>,
  id: string | undefined,
): Promise<WumpusRecord & Required<Pick<WumpusRecord, 'remix'>>> {
  const record = await findVisibleWumpus(store, id, viewer)
  if (!record.remix) throw notFound('No remix with this id')
  if (record.u_email !== viewer.email) throw forbidden('Only its owner can share this remix')
  return record as WumpusRecord & Required<Pick<WumpusRecord, 'remix'>>
}

/** The next generation of a remix's file keys (http/file-keys.ts). */
const nextKeys = (remix: RemixInfo): RemixInfo => ({ ...remix, keyGeneration: (remix.keyGeneration ?? 0) + 1 })

/**
 * Changes the remix `viewer` owns (ownRemix) as `change` says, only while its files (and so its
 * remix.source) are the ones read: a remake meanwhile is kept, and the change is tried again.
 */
async function changeOwnRemix(
  store: Store,
  viewer: NonNullable<Viewer>,
  id: string | undefined,
  change: (remix: RemixInfo) => RemixInfo,
): Promise<WumpusRecord> {
  for (let attempt = 1; ; attempt++) {
    const record = await ownRemix(store, viewer, id)
    const updated = await store.wumpuses.update(record._id, { remix: change(record.remix) }, { whileFiles: record.files })
    if (updated) return updated
    if (attempt === REMAKE_ATTEMPTS) throw conflict('This remix is being made again; try again shortly')
  }
}

/** Its owner shares a remix by link, or makes it private again; a change gives its files new keys. */
function shareRemix(store: Store, viewer: NonNullable<Viewer>, id: string | undefined, visibility: RemixVisibility): Promise<WumpusRecord> {
  return changeOwnRemix(store, viewer, id, (remix) => (remix.visibility === visibility ? remix : nextKeys({ ...remix, visibility })))
}

/** Its owner gives its files new keys: the keyed URLs shown before open nothing any more. */
function renewRemixKeys(store: Store, viewer: NonNullable<Viewer>, id: string | undefined): Promise<WumpusRecord> {
  return changeOwnRemix(store, viewer, id, nextKeys)
}

/**
 * One's own remixes, newest first, without those an admin hid (a report's hide): they open for admins only,
 * so a card would lead to a page and files that answer 404. (They still take a place below the cap.)
 */
function listOwnRemixes(store: Store, owner: string, page: { limit: number; cursor?: string }) {
  return store.wumpuses.listRemixes({ owner, withoutHidden: true, ...page })
}

/** Calls `visit` for every remix the options select, a page at a time (ids first: a visit may delete). */
async function eachRemix(store: Store, options: { of: string }, visit: (remix: WumpusRecord) => Promise<void>): Promise<void> {
  let cursor: string | undefined
  const seen: WumpusRecord[] = []
  do {
    const page = await store.wumpuses.listRemixes({ ...options, limit: REMIX_PAGE, cursor })
    seen.push(...page.items)
    cursor = page.nextCursor
  } while (cursor)
  for (const remix of seen) await visit(remix)
}

/**
 * Makes a remix's files again from its original's current Lottie, unless they were made from it already.
 * The record takes the new files only while its files are still those read (else it starts over); the
 * files it let go are removed, the previews and chat app files follow.
 */
async function remakeRemix(deps: RemixWork, remixId: string): Promise<'made' | 'current' | 'gone'> {
  const { store } = deps
  for (let attempt = 1; attempt <= REMAKE_ATTEMPTS; attempt++) {
    const before = await store.wumpuses.get(remixId)
    if (!before?.remix) return 'gone'
    const original = await store.wumpuses.get(before.remix.of)
    if (!original) return 'gone'
    if (before.remix.source === original.files.lottie.id) return 'current'
    const originalLottie = await lottieOf(store, original.files.lottie.id)
    if (!originalLottie) continue
    const stored: string[] = []
    let after: WumpusRecord | undefined
    let key: string | undefined
    try {
      // Remixes made before they had names of their own are called as their original: their files say "remix".
      const fileName = before.name === original.name ? `${original.name} remix` : before.name
      const made = await makeRemixFiles(
        deps,
        { twins: deps.twins },
        fileName,
        originalLottie,
        before.remix.recipe,
        before.u_email,
        stored,
      ).catch(async (error: unknown) => {
        // A busy render queue is waited out here: a remake has no one to answer 503 to.
        if (!(error instanceof DomainError) || error.kind !== 'busy' || attempt === REMAKE_ATTEMPTS) throw error
        await new Promise((resolve) => setTimeout(resolve, (error.retryAfterSeconds ?? 1) * 1000))
        return undefined
      })
      if (!made) continue
      const { files } = made
      key = made.key
      // Read again just before writing, so a change of sharing made while rendering is kept.
      const latest = await store.wumpuses.get(remixId)
      if (latest?.remix) {
        after = await store.wumpuses.update(
          remixId,
          { files, remix: { ...latest.remix, source: original.files.lottie.id } },
          { whileFiles: before.files },
        )
      }
    } finally {
      if (!after) await Promise.all(stored.map((id) => store.files.delete(id).catch(() => false)))
    }
    if (!after) continue
    if (key) deps.twins.remember(key, remixId)
    await Promise.all(Object.values(before.files).map((file) => store.files.delete(file.id).catch(() => false)))
    await deps.derivedMedia.filesChanged(before, after, { priority: 'remake', account: after.u_email })
    return 'made'
  }
  throw new Error('the remix kept changing while it was made again')
}

/** Remakes that failed, kept per remix with the original's Lottie they were tried for (bounded). */
const FAILED_KEPT = 1000

/** remakeIfStale: remakes in the background the remixes people open, each once per change of its original. */
function createLazyRemakes(deps: RemixWork): RemixService['remakeIfStale'] {
  const running = new Map<string, Promise<'made' | 'current' | 'gone' | 'failed'>>()
  const failed = new Map<string, string>()
  return (record) => {
    const remix = record.remix
    if (!remix) return Promise.resolve('current')
    const known = running.get(record._id)
    if (known) return known
    const remake = (async () => {
      const original = await deps.store.wumpuses.get(remix.of)
      if (!original) return 'gone' as const
      const source = original.files.lottie.id
      if (remix.source === source || failed.get(record._id) === source) return 'current' as const
      try {
        return await remakeRemix(deps, record._id)
      } catch (error) {
        if (failed.size >= FAILED_KEPT) failed.delete(failed.keys().next().value!)
        failed.set(record._id, source)
        deps.logger.error('making a remix again failed', { id: record._id, of: remix.of, error: String(error) })
        return 'failed' as const
      }
    })()
      .catch((error: unknown) => {
        deps.logger.error('making a remix again failed', { id: record._id, error: String(error) })
        return 'failed' as const
      })
      .finally(() => running.delete(record._id))
    running.set(record._id, remake)
    return remake
  }
}

/** Deletes one remix with its files and derived files; answers how many were deleted (0 or 1). */
async function deleteRemix(deps: Pick<RemixesDeps, 'store' | 'derivedMedia'>, id: string): Promise<number> {
  const { store } = deps
  const record = await store.wumpuses.get(id)
  const deleted = record ? await store.wumpuses.delete(record._id) : 0
  if (record && deleted > 0) {
    await Promise.all(Object.values(record.files).map((file) => store.files.delete(file.id)))
    await deps.derivedMedia.removed(record)
  }
  return deleted
}

/** With an original: every remix of it goes too. */
async function deleteRemixesOf(deps: Pick<RemixesDeps, 'store' | 'derivedMedia'>, originalId: string): Promise<void> {
  await eachRemix(deps.store, { of: originalId }, async (remix) => {
    await deleteRemix(deps, remix._id)
  })
}
