// The pack rules: admins make the public, curated packs; any user with a verified email makes personal ones
// (private, or shared by link), up to PERSONAL_PACKS_MAX. A pack is an ordered selection of existing
// animations (1 to 200, each once, the cover one of them); a private pack is NOT_FOUND to anyone but its
// owner and admins. Edits keep the latest edit per field (an edit queued offline brings its own time).
// Anyone who may open a pack downloads one ZIP per chat platform made of the platform files the server
// already made for each animation (services/derived-media.ts). A ZIP is checked against the platform's
// pack rules before a byte is sent (WhatsApp: 3 to 30 animated stickers), then streamed entry by entry:
// one sticker file in memory at a time.
import { Readable } from 'node:stream'
import { ZipFile } from 'yazl'
import { FALLBACK_EMOJI, LINE_SET_SIZES, PERSONAL_PACKS_MAX, WHATSAPP_PACK_MAX, WHATSAPP_PACK_MIN } from '../../../contract/limits'
import type { Pack, PackDetail, PackDownload, UpdatedPack } from '../../../contract/pack'
import { packDownloadPath } from '../../../contract/api-paths'
import { PLATFORM_RULES, PLATFORMS, type Platform } from '../../../contract/stickers'
import { badRequest, HttpError, notFound } from '../http/http-error'
import type { Logger } from '../logger'
import { lineSetImages, trayIcon } from '../media/pack-images'
import { toApiWumpus } from '../http/mappers/wumpus'
import type { AuditChange, DerivedFile, NewPack, PackPatch, PackRecord, Role, Store, WumpusRecord } from '../store/port'
import { fieldChanges, type AuditLog } from './audit'
import { derivedIsCurrent, fileStem } from './derived-media'
import { discordEmojiName, entryEmoji, PACK_PUBLISHER, packManifests, type PackEntry } from './pack-manifests'

export interface PackServiceDeps {
  store: Store
  audit: AuditLog
  logger: Logger
}

/** A pack's ZIP for one platform, ready to stream. */
export interface PackZip {
  fileName: string
  /** Exact byte length of the archive (every entry is stored, not deflated, so it is known before). */
  bytes: number
  stream: Readable
  /** The animations whose files are in it (each counts as a download). */
  wumpusIds: string[]
}

/**
 * Who asks: a signed-in user, `admin` only with admin power (an admin whose email is verified), or
 * undefined for nobody signed in.
 */
export type Viewer = { email: string; role: Role } | undefined
/** Who writes: always signed in. */
export type Actor = NonNullable<Viewer>

type NewPackInput = Pick<NewPack, 'name' | 'description' | 'wumpusIds' | 'coverWumpusId'>
type Entry = { record: WumpusRecord; file: DerivedFile }

/** Telegram sets hold at most this many animated stickers, or custom emoji. */
const TELEGRAM_SET_MAX: Partial<Record<Platform, number>> = { telegram: 120, 'telegram-emoji': 200 }
const AUDIT_TEXT_MAX = 500
const NO_SUCH_PACK = 'No pack with this id'

export interface PackService {
  /** The public packs, newest first. */
  list(query: { limit: number; cursor?: string }): Promise<{ items: Pack[]; total: number; nextCursor?: string }>
  /** One owner's personal packs, most recently updated first. */
  listPersonal(owner: string, query: { limit: number; cursor?: string }): Promise<{ items: Pack[]; total: number; nextCursor?: string }>
  /** The pack with its stickers in order and one download per platform; throws NOT_FOUND (a private pack the viewer may not open too). */
  detail(id: string, viewer: Viewer): Promise<PackDetail>
  /** A public pack (the caller checked the actor is an admin). */
  create(actor: string, input: NewPackInput): Promise<Pack>
  /** A personal pack of the owner's; throws CONFLICT (reason packs-full) at PERSONAL_PACKS_MAX. */
  createPersonal(owner: string, input: NewPackInput & { visibility: 'link' | 'private' }): Promise<Pack>
  /**
   * Applies the fields of the patch not edited later than `editedAt` (default now; a later time is now).
   * Public packs: admins only; personal packs: their owner and admins. Throws NOT_FOUND for an unknown
   * pack (or a private pack of someone else), FORBIDDEN for a pack the actor may open but not change.
   */
  update(actor: Actor, id: string, patch: PackPatch, options?: { editedAt?: Date }): Promise<UpdatedPack>
  /** Who may delete a pack is who may change it; answers 0 for an unknown pack. */
  remove(actor: Actor, id: string): Promise<number>
  /** Throws NOT_FOUND as detail does, or PACK_NOT_FIT (422) with the reason when the pack breaks the platform's rules. */
  zip(id: string, platform: Platform, viewer: Viewer): Promise<PackZip & Pick<Pack, 'visibility'>>
}

const isAdmin = (viewer: Viewer) => viewer?.role === 'admin'
const isOwner = (pack: PackRecord, viewer: Viewer) => pack.visibility !== 'public' && viewer?.email === pack.createdBy

export function createPackService({ store, audit, logger }: PackServiceDeps): PackService {
  /** The pack's animations in order; ids of animations deleted meanwhile are skipped. */
  async function itemsOf(pack: Pick<PackRecord, 'wumpusIds'>): Promise<WumpusRecord[]> {
    const records = await Promise.all(pack.wumpusIds.map((id) => store.wumpuses.get(id)))
    return records.filter((record): record is WumpusRecord => record !== undefined)
  }

  /** The pack, when the viewer may open it: a private pack is its owner's and admins' only. */
  async function getPack(id: string, viewer: Viewer): Promise<PackRecord> {
    const pack = await store.packs.get(id)
    if (!pack || (pack.visibility === 'private' && !isOwner(pack, viewer) && !isAdmin(viewer))) throw notFound(NO_SUCH_PACK)
    return pack
  }

  /**
   * Whether the actor may change the pack (else throws, as getPack for a pack they may not open), and
   * whether that is audited: an admin's change to a public pack or to someone else's personal pack.
   */
  function mayChange(pack: PackRecord, actor: Actor): { audited: boolean } {
    if (isOwner(pack, actor)) return { audited: false }
    if (isAdmin(actor)) return { audited: true }
    if (pack.visibility === 'private') throw notFound(NO_SUCH_PACK)
    throw new HttpError('FORBIDDEN', pack.visibility === 'public' ? 'Only admins can do this' : 'Only its owner can change this pack')
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

  /** The pack as the viewer sees it: a personal pack's owner is shown to them and admins only. */
  async function toPack(pack: PackRecord, viewer: Viewer, items?: WumpusRecord[]): Promise<Pack> {
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
      visibility: pack.visibility,
      createdBy: pack.visibility === 'public' || isOwner(pack, viewer) || isAdmin(viewer) ? pack.createdBy : null,
      createdAt: pack.createdAt.toISOString(),
      updatedAt: pack.updatedAt.toISOString(),
    }
  }

  return {
    async list(query) {
      const page = await store.packs.list(query)
      return { ...page, items: await Promise.all(page.items.map((pack) => toPack(pack, undefined))) }
    },

    async listPersonal(owner, query) {
      const page = await store.packs.listPersonal(owner, query)
      const viewer = { email: owner, role: 'user' } as const
      return { ...page, items: await Promise.all(page.items.map((pack) => toPack(pack, viewer))) }
    },

    async detail(id, viewer) {
      const pack = await getPack(id, viewer)
      const items = await itemsOf(pack)
      return {
        ...(await toPack(pack, viewer, items)),
        items: items.map(toApiWumpus),
        downloads: PLATFORMS.map((platform) => toDownload(pack, planZip(pack, items, platform))),
      }
    },

    async create(actor, input) {
      const items = await existing(input.wumpusIds)
      const pack = await store.packs.insert({ ...input, visibility: 'public', createdBy: actor })
      await audit.record({
        actor,
        action: 'pack.create',
        target: { type: 'pack', id: pack.id, name: pack.name },
        changes: packChanges(undefined, pack, items),
      })
      return toPack(pack, undefined, items)
    },

    async createPersonal(owner, input) {
      const items = await existing(input.wumpusIds)
      const pack = await store.packs.insertPersonal({ ...input, createdBy: owner }, { max: PERSONAL_PACKS_MAX })
      if (pack === 'full') {
        throw new HttpError('CONFLICT', `You have ${PERSONAL_PACKS_MAX} packs, the most one can keep: delete one to make another`, {
          reason: 'packs-full',
          max: PERSONAL_PACKS_MAX,
        })
      }
      return toPack(pack, { email: owner, role: 'user' }, items)
    },

    async update(actor, id, patch, options = {}) {
      const before = await getPack(id, actor)
      const { audited } = mayChange(before, actor)
      if (patch.visibility !== undefined && before.visibility === 'public') {
        throw badRequest('Public packs are always public: only personal packs are private or shared by link', { field: 'visibility' })
      }
      const newItems = patch.wumpusIds ? await existing(patch.wumpusIds) : []
      if (patch.coverWumpusId && !(patch.wumpusIds ?? before.wumpusIds).includes(patch.coverWumpusId)) {
        throw badRequest('The cover must be one of the pack’s stickers', { field: 'coverWumpusId' })
      }
      // An edit cannot claim a time to come: it would win over every edit made until then.
      const now = Date.now()
      const editedAt = new Date(Math.min(options.editedAt?.getTime() ?? now, now))
      const updated = await store.packs.update(id, patch, { editedAt })
      if (!updated) throw notFound(NO_SUCH_PACK)
      const items = [...(await itemsOf(before)), ...newItems]
      const changes = packChanges(before, updated.pack, items)
      if (audited && changes.length > 0)
        await audit.record({ actor: actor.email, action: 'pack.edit', target: { type: 'pack', id, name: updated.pack.name }, changes })
      return { ...(await toPack(updated.pack, actor, items)), superseded: updated.superseded }
    },

    async remove(actor, id) {
      const pack = await store.packs.get(id)
      if (!pack) return 0
      const { audited } = mayChange(pack, actor)
      const deleted = await store.packs.delete(pack.id)
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

    async zip(id, platform, viewer) {
      const pack = await getPack(id, viewer)
      const plan = planZip(pack, await itemsOf(pack), platform)
      if (!plan.fits)
        throw new HttpError('PACK_NOT_FIT', plan.message!, { platform, stickers: plan.entries.length, missing: plan.left.length })
      return { ...(await writeZip(store, logger, pack, plan)), visibility: pack.visibility }
    },
  }
}

interface ZipPlan {
  platform: Platform
  entries: Entry[]
  /** Animations without this platform's file, and why. */
  left: { record: WumpusRecord; reason: string }[]
  fits: boolean
  message: string | null
  notes: string[]
}

/** Which stickers go in a platform's ZIP, and whether the platform takes it as a pack. */
function planZip(pack: PackRecord, items: WumpusRecord[], platform: Platform): ZipPlan {
  const rules = PLATFORM_RULES[platform]
  const entries: Entry[] = []
  const left: ZipPlan['left'] = []
  for (const record of items) {
    const made = derivedIsCurrent(record) ? record.derived.exports.find((e) => e.platform === platform) : undefined
    if (made?.file) entries.push({ record, file: made.file })
    else left.push({ record, reason: made ? (made.notes[0] ?? `No file fits ${rules.label}`) : 'Still being made' })
  }
  const count = entries.length
  const has = left.length === 0 ? `this pack has ${count}` : `${count} of this pack’s ${items.length} have a ${rules.label} file`
  let message: string | null = null
  if (items.length === 0) message = 'This pack has no stickers.'
  else if (count === 0) message = `None of this pack’s stickers has a ${rules.label} file yet.`
  else if (platform === 'whatsapp') {
    const still = entries.find((e) => e.file.frames < 2)
    if (count < WHATSAPP_PACK_MIN || count > WHATSAPP_PACK_MAX)
      message = `WhatsApp packs need ${WHATSAPP_PACK_MIN} to ${WHATSAPP_PACK_MAX} stickers; ${has}.`
    else if (still) message = `WhatsApp packs are all animated; “${still.record.name}” is a still.`
  }
  const notes: string[] = []
  if (platform === 'line' && count > 0 && !(LINE_SET_SIZES as readonly number[]).includes(count)) {
    notes.push(`LINE sets have ${LINE_SET_SIZES.join(', ').replace(/, (?=\d+$)/, ' or ')} stickers; ${has}.`)
  }
  const setMax = TELEGRAM_SET_MAX[platform]
  if (setMax !== undefined && count > setMax)
    notes.push(`Telegram sets hold up to ${setMax} ${platform === 'telegram' ? 'animated stickers' : 'custom emoji'}: make two sets.`)
  return { platform, entries, left, fits: message === null, message, notes }
}

function zipName(pack: PackRecord, platform: Platform): string {
  return `${fileStem(pack.name)}.${platform}.zip`
}

function toDownload(pack: PackRecord, plan: ZipPlan): PackDownload {
  return {
    platform: plan.platform,
    label: PLATFORM_RULES[plan.platform].label,
    url: packDownloadPath(pack.id, plan.platform),
    fileName: zipName(pack, plan.platform),
    fits: plan.fits,
    message: plan.message,
    stickers: plan.entries.length,
    missing: plan.left.length,
    bytes: plan.entries.reduce((sum, entry) => sum + entry.file.bytes, 0),
    notes: plan.notes,
    parts: [],
  }
}

/** Entry names keep the pack's order: `01-waving-wumpus.whatsapp.webp`. */
function entryNames(entries: Entry[]): string[] {
  const width = String(entries.length).length
  return entries.map((entry, i) => `${String(i + 1).padStart(width, '0')}-${entry.file.filename}`)
}

async function writeZip(store: Store, logger: Logger, pack: PackRecord, plan: ZipPlan): Promise<PackZip> {
  const zip = new ZipFile()
  const mtime = pack.updatedAt
  const text = (name: string, content: string) => zip.addBuffer(Buffer.from(content, 'utf8'), name, { mtime, compress: false })
  // The pack's images are made before the first byte goes out, so a failure is still a clean error.
  const cover = plan.platform === 'whatsapp' || plan.platform === 'line' ? await coverStill(store, pack, plan.entries) : undefined
  const tray = plan.platform === 'whatsapp' && cover ? await trayIcon(cover) : undefined
  const lineImages = plan.platform === 'line' && cover ? await lineSetImages(cover) : undefined
  const names = entryNames(plan.entries)
  plan.entries.forEach((entry, i) => {
    zip.addReadStreamLazy(names[i]!, { mtime, compress: false, size: entry.file.bytes }, (done) => {
      store.files.read(entry.file.id).then(
        (file) =>
          file
            ? done(null, Readable.from([Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength)]))
            : done(new Error(`file ${entry.file.id} is gone`), undefined as never),
        (error: unknown) => done(error as Error, undefined as never),
      )
    })
  })
  if (tray) {
    zip.addBuffer(Buffer.from(tray), 'tray.png', { mtime, compress: false })
    // Sticker apps that import .wastickers archives read the title and author from these.
    text('title.txt', pack.name)
    text('author.txt', PACK_PUBLISHER)
  }
  if (lineImages) {
    zip.addBuffer(Buffer.from(lineImages.main), 'main.png', { mtime, compress: false })
    zip.addBuffer(Buffer.from(lineImages.tab), 'tab.png', { mtime, compress: false })
  }
  const entries = plan.entries.map((entry, i) => ({ name: names[i]!, record: entry.record }))
  for (const manifest of packManifests(pack, plan.platform, entries)) text(manifest.name, manifest.text)
  text('README.txt', readme(pack, plan, entries))
  // yazl answers the archive's final size (@types/yazl leaves the argument out); -1 would mean unknown.
  const end = zip.end.bind(zip) as (options: undefined, onSize: (bytes: number) => void) => void
  const bytes = await new Promise<number>((resolve) => end(undefined, resolve))
  zip.outputStream.on('error', (error) =>
    logger.error('a pack ZIP stopped while streaming', { pack: pack.id, platform: plan.platform, error: String(error) }),
  )
  return {
    fileName: zipName(pack, plan.platform),
    bytes,
    stream: zip.outputStream as Readable,
    wumpusIds: plan.entries.map((entry) => entry.record._id),
  }
}

/** The cover's still (or its sticker file, whose first frame serves), for the pack's own images. */
async function coverStill(store: Store, pack: PackRecord, entries: Entry[]): Promise<Uint8Array> {
  const cover = entries.find((entry) => entry.record._id === pack.coverWumpusId) ?? entries[0]!
  const still = derivedIsCurrent(cover.record) ? cover.record.derived.previews?.still : undefined
  const source = (still && (await store.files.read(still.id))) || (await store.files.read(cover.file.id))
  if (!source) throw new HttpError('NOT_FOUND', 'The cover’s image is missing; try again in a minute')
  return source.bytes
}

const HOW_TO: Record<Platform, string> = {
  discord:
    'Discord: Server Settings > Stickers > Upload Sticker, one file at a time, with the emoji listed above (and in emoji.txt) as its related emoji (a server has 5 to 60 sticker slots by boost level).',
  'discord-emoji':
    'Discord: Server Settings > Emoji > Upload Emoji, several .gif files at once, named as listed above (and in emoji.txt) (a server has 50 to 250 animated emoji slots by boost level).',
  telegram:
    'Telegram: send /newpack (animated) to @Stickers, then each .tgs file in this order with the emoji listed above; stickers.json lists the same (emoji_list, keywords) for a bot calling createNewStickerSet.',
  'telegram-emoji':
    'Telegram: send /newemojipack (animated) to @Stickers, then each .tgs file in this order with the emoji listed above (custom emoji need Telegram Premium to send); stickers.json lists the same for a bot calling createNewStickerSet.',
  whatsapp:
    'WhatsApp: open the ZIP in a sticker app that imports packs, or rename it to .wastickers; contents.json gives each sticker its emoji and accessibility text, and tray.png is the pack icon.',
  signal: 'Signal Desktop: File > Create/upload sticker pack, add the .png files, and give each the emoji listed above (and in emoji.txt).',
  line: 'LINE: upload the .png files in LINE Creators Market as an animated sticker set, with main.png as its main image and tab.png as its chat tab image.',
  slack: 'Slack: Customize workspace > Emoji > Add Custom Emoji, one .gif at a time.',
}

/** How a sticker is listed in README.txt: its file and, where the app takes them, its emoji or emoji name. */
function readmeLine(platform: Platform, entry: PackEntry): string {
  const tag = platform === 'discord-emoji' ? `:${discordEmojiName(entry.record)}:` : entryEmoji(platform, entry.record).join(' ')
  return tag ? `  ${entry.name}  ${tag}` : `  ${entry.name}`
}

function readme(pack: PackRecord, plan: ZipPlan, entries: PackEntry[]): string {
  const label = PLATFORM_RULES[plan.platform].label
  // "Discord emoji", "Telegram stickers".
  const what = plan.platform.endsWith('-emoji') ? label : `${label} stickers`
  const lines = [`${pack.name}: ${what} from Wumpus Gallery`, '']
  if (pack.description) lines.push(pack.description, '')
  lines.push(
    `${entries.length} sticker${entries.length === 1 ? '' : 's'}, in pack order:`,
    ...entries.map((entry) => readmeLine(plan.platform, entry)),
    '',
  )
  if (plan.left.length > 0) {
    lines.push(`Left out (no ${label} file):`, ...plan.left.map(({ record, reason }) => `  ${record.name}: ${reason}`), '')
  }
  const bare = entries.filter((entry) => entry.record.emoji.length === 0)
  if (bare.length > 0 && PLATFORM_RULES[plan.platform].emoji > 0) {
    lines.push(
      `${bare.length === 1 ? 'One sticker has' : `${bare.length} stickers have`} no emoji of its own yet and go${bare.length === 1 ? 'es' : ''} with ${FALLBACK_EMOJI}.`,
      '',
    )
  }
  if (plan.notes.length > 0) lines.push(...plan.notes, '')
  lines.push(HOW_TO[plan.platform], '')
  return lines.join('\r\n')
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
