import { z } from 'zod'
import { PACK_DESCRIPTION_MAX, PACK_ITEMS_MAX, PACK_ITEMS_MIN, PACK_NAME_MAX, PACK_NAME_MIN } from './limits'
import { pageQuerySchema } from './paging'
import { platformSchema } from './stickers'
import { idSchema, wumpusSchema } from './wumpus'

/** Sticker packs: an admin's ordered selection of animations, downloadable as one ZIP per chat platform. */

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

/** POST /api/packs. The cover defaults to the first sticker. */
export const createPackSchema = z
  .object({
    name: packNameSchema,
    description: packDescriptionSchema.default(''),
    wumpusIds: packItemsSchema,
    coverWumpusId: idSchema.optional(),
  })
  .strict()
  .refine(coverInItems, COVER_MESSAGE)
export type CreatePack = z.input<typeof createPackSchema>

/** PUT /api/packs/{id}: the fields given replace the stored ones (add, reorder and remove are a new `wumpusIds`). */
export const updatePackSchema = z
  .object({
    name: packNameSchema.optional(),
    description: packDescriptionSchema.optional(),
    wumpusIds: packItemsSchema.optional(),
    coverWumpusId: idSchema.optional(),
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
  /** Email of the admin who made it. */
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Pack = z.infer<typeof packSchema>
export const packListSchema = z.array(packSchema)

/**
 * One platform's ZIP of a pack, as the pack page offers it: `fits` false means the server refuses it
 * (`message` says why); `missing` stickers have no file for that platform yet and are left out (listed in
 * the ZIP's README.txt); `notes` are advice that does not stop the download (LINE set sizes).
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
})
export type PackDownload = z.infer<typeof packDownloadSchema>

/** GET /api/packs/{id}: the pack, its stickers in order (for cards), and one download per platform. */
export const packDetailSchema = packSchema.extend({
  items: z.array(wumpusSchema),
  downloads: z.array(packDownloadSchema),
})
export type PackDetail = z.infer<typeof packDetailSchema>

/** GET /api/packs: newest first, paged like the gallery. */
export const packListQuerySchema = pageQuerySchema
