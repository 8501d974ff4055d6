import { z } from 'zod'
import { PACK_DESCRIPTION_MAX, PACK_ITEMS_MAX, PACK_ITEMS_MIN, PACK_NAME_MAX, PACK_NAME_MIN } from './limits'
import { PACK_EDIT_FIELDS } from './pack-edits'
import { pageQuerySchema } from './paging'
import { packImportSchema } from './pack-imports'
import { platformSchema } from './stickers'
import { idSchema, wumpusSchema } from './wumpus'

/**
 * Sticker packs: an ordered selection of animations, downloadable as ZIPs per chat platform. Admins make
 * the curated, public ones; any verified user makes personal ones.
 */

export const packNameSchema = z
  .string()
  .trim()
  .min(PACK_NAME_MIN, `Name should be at least ${PACK_NAME_MIN} characters`)
  .max(PACK_NAME_MAX, `Name should be at most ${PACK_NAME_MAX} characters`)
  // Control characters are what this refuses, so the pattern names them.
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f<>]+$/, 'Use letters, digits, spaces and punctuation only')

export const packDescriptionSchema = z
  .string()
  .trim()
  .max(PACK_DESCRIPTION_MAX, `Description should be at most ${PACK_DESCRIPTION_MAX} characters`)

/** The stickers in order: 1 to 200, each once. */
export const packItemsSchema = z
  .array(idSchema)
  .min(PACK_ITEMS_MIN, 'Add at least one sticker')
  .max(PACK_ITEMS_MAX, `A pack holds at most ${PACK_ITEMS_MAX} stickers`)
  .refine((ids) => new Set(ids).size === ids.length, 'A sticker can be in a pack only once')

const coverInItems = (pack: { wumpusIds?: string[]; coverWumpusId?: string }) =>
  pack.coverWumpusId === undefined || pack.wumpusIds === undefined || pack.wumpusIds.includes(pack.coverWumpusId)
const COVER_MESSAGE = { message: 'The cover must be one of the pack’s stickers', path: ['coverWumpusId'] }

/**
 * Who opens a pack: `public` packs are the curated ones admins make, listed at /packs; personal packs
 * (any verified user's own, listed in their dashboard) are `private` (their owner and admins only) or
 * `link` (anyone with the pack's link, which is unguessable).
 */
export const PACK_VISIBILITIES = ['public', 'link', 'private'] as const
export const packVisibilitySchema = z.enum(PACK_VISIBILITIES)
export type PackVisibility = z.infer<typeof packVisibilitySchema>
export const personalVisibilitySchema = z.enum(['private', 'link'])

const packFields = {
  name: packNameSchema,
  description: packDescriptionSchema.default(''),
  wumpusIds: packItemsSchema,
  coverWumpusId: idSchema.optional(),
}

/** POST /api/packs (admins): a curated, public pack. The cover defaults to the first sticker. */
export const createPackSchema = z.object(packFields).strict().refine(coverInItems, COVER_MESSAGE)
export type CreatePack = z.input<typeof createPackSchema>

/** POST /api/me/packs (verified users): a personal pack, private unless `visibility` says `link`. */
export const createPersonalPackSchema = z
  .object({ ...packFields, visibility: personalVisibilitySchema.default('private') })
  .strict()
  .refine(coverInItems, COVER_MESSAGE)
export type CreatePersonalPack = z.input<typeof createPersonalPackSchema>

/**
 * PUT /api/packs/{id}: the fields given replace the stored ones (add, reorder and remove are a new
 * `wumpusIds`). `visibility` is for personal packs only. `editedAt` is when the edit was made (an edit
 * queued offline sends its own time; default now, and never later than now): a field edited later
 * elsewhere (another device) keeps that later value, and the answer's `superseded` names it.
 */
export const updatePackSchema = z
  .object({
    name: packNameSchema.optional(),
    description: packDescriptionSchema.optional(),
    wumpusIds: packItemsSchema.optional(),
    coverWumpusId: idSchema.optional(),
    visibility: personalVisibilitySchema.optional(),
    editedAt: z.string().datetime({ offset: true }).optional(),
  })
  .strict()
  .refine(coverInItems, COVER_MESSAGE)
export type UpdatePack = z.input<typeof updatePackSchema>

/**
 * A pack as the API shows it. `coverWumpusId` is one of `wumpusIds` (null only when every sticker of the
 * pack was deleted: such a pack stays, empty, until an admin fills or deletes it). `cover` is the cover
 * animation, for cards.
 */
export const packSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  coverWumpusId: z.string().nullable(),
  wumpusIds: z.array(z.string()),
  cover: wumpusSchema.nullable(),
  visibility: packVisibilitySchema,
  /**
   * Email of who made it (its owner, for a personal pack). Null for a personal pack opened by anyone
   * but its owner and admins: a shared link does not reveal its owner's email.
   */
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Pack = z.infer<typeof packSchema>

/** The answer to PUT /api/packs/{id}: the pack, and the fields of this edit that a later edit elsewhere kept. */
export const updatedPackSchema = packSchema.extend({ superseded: z.array(z.enum(PACK_EDIT_FIELDS)) })
export type UpdatedPack = z.infer<typeof updatedPackSchema>
export const packListSchema = z.array(packSchema)

/**
 * WhatsApp's pack as a `.wastickers` file, the name sticker maker apps on phones open (the same archive:
 * stickers, tray.png, title.txt, author.txt, contents.json): `GET /api/packs/{id}/download/wastickers`.
 */
export const WASTICKERS = 'wastickers'
export const wastickersFileSchema = z.object({ url: z.string(), fileName: z.string() })

/**
 * One ZIP of a pack that a platform takes only in parts (WhatsApp 3 to 30 stickers, never still and
 * animated together; Telegram 120; Signal 200; LINE sets of 8, 16 or 24): `…part-1-of-3…`.
 */
export const packPartSchema = z.object({
  part: z.number().int().positive(),
  url: z.string(),
  fileName: z.string(),
  stickers: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  /** Still stickers (WhatsApp keeps still and animated stickers in separate packs). */
  still: z.boolean(),
  /** WhatsApp: the same part as a `.wastickers` file; null for other apps. */
  wastickers: wastickersFileSchema.nullable(),
})
export type PackPart = z.infer<typeof packPartSchema>

/**
 * One platform's ZIP of a pack, as the pack page offers it: `fits` false means the server refuses it
 * (`message` says why); `missing` stickers have no file for that platform yet and are left out (listed in
 * the ZIP's README.txt); `notes` are advice that does not stop the download (LINE set sizes). A pack larger
 * than the platform allows comes in `parts` (empty when it fits in one ZIP: then `url` is the download),
 * and `notes` say how it is split and which stickers no part holds.
 */
export const packDownloadSchema = z.object({
  platform: platformSchema,
  label: z.string(),
  url: z.string(),
  fileName: z.string(),
  fits: z.boolean(),
  message: z.string().nullable(),
  stickers: z.number().int().nonnegative(),
  missing: z.number().int().nonnegative(),
  /** Sum of the sticker files' sizes (the ZIP adds a few hundred bytes per file). */
  bytes: z.number().int().nonnegative(),
  notes: z.array(z.string()),
  parts: z.array(packPartSchema),
  /** WhatsApp: the pack as a `.wastickers` file for sticker maker apps (per part in `parts` when split); null for other apps. */
  wastickers: wastickersFileSchema.nullable(),
})
export type PackDownload = z.infer<typeof packDownloadSchema>

const telegramSetState = z.enum(['making', 'ready', 'failed'])

/**
 * A pack's Telegram custom emoji set, made beside its sticker set from the stickers' custom emoji files: as the
 * sticker set's state, with `url` (`https://t.me/addemoji/<name>`) once it exists; a pack none of whose stickers
 * has a custom emoji file has none on Telegram ('ready' without `url`).
 */
export const packTelegramEmojiSchema = z.object({
  state: telegramSetState,
  url: z
    .string()
    .regex(/^https:\/\/t\.me\/addemoji\/[A-Za-z][A-Za-z0-9_]{0,63}$/)
    .optional(),
  reason: z.string().optional(),
})
export type PackTelegramEmoji = z.infer<typeof packTelegramEmojiSchema>

/**
 * A public pack's Telegram sticker set made by the gallery's bot (README: Telegram sets): 'making' while it is
 * made or brought in step with the pack (`reason`: why it waits, when it does), 'ready' once it matches, 'failed'
 * with the `reason`. `url` (`https://t.me/addstickers/<name>`) opens it in Telegram once it exists; `emoji`: its
 * custom emoji set (absent in answers kept from before them). The answer to an admin's
 * `POST /api/packs/{id}/telegram` (202), and `telegram` in GET /api/packs/{id}.
 */
export const packTelegramSchema = z.object({
  state: telegramSetState,
  url: z
    .string()
    .regex(/^https:\/\/t\.me\/addstickers\/[A-Za-z][A-Za-z0-9_]{0,63}$/)
    .optional(),
  reason: z.string().optional(),
  emoji: packTelegramEmojiSchema.optional(),
})
export type PackTelegram = z.infer<typeof packTelegramSchema>

/**
 * GET /api/packs/{id}: the pack, its stickers in order (for cards), one download per platform, and one per
 * community server's emoji import format (contract/pack-imports.ts; absent in answers kept from before them);
 * `telegram` once a Telegram set of it was asked for (absent when the server has Telegram off).
 */
export const packDetailSchema = packSchema.extend({
  items: z.array(wumpusSchema),
  downloads: z.array(packDownloadSchema),
  imports: z.array(packImportSchema).optional(),
  telegram: packTelegramSchema.optional(),
})
export type PackDetail = z.infer<typeof packDetailSchema>

/** GET /api/packs (the public ones) and GET /api/me/packs (one's own): paged like the gallery. */
export const packListQuerySchema = pageQuerySchema

/** GET /api/packs/{id}/download/{platform}?part=N, for a platform that takes the pack in parts. */
export const packDownloadQuerySchema = z
  .object({
    part: z.coerce.number().int().min(1).max(PACK_ITEMS_MAX).optional(),
    /** In the URLs a personal pack's maker and admins are shown: the ZIP as they may have it, without a bearer. */
    key: z.string().max(64).optional(),
  })
  .strict()
