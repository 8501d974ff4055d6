import { z } from 'zod'
import { ID_PATTERN } from './limits'
import { normalizeTag, tagProblem } from './search'
import { platformSchema } from './stickers'
import { DEFAULT_LICENCE, licenceSchema } from './licence'
import type { Recipe } from './remix/recipe'

/**
 * Card previews made from the Lottie: animated WebP at 1x (`webp`, 300 px) and 2x (`webp2x`,
 * 600 px) of the card image, and a still WebP of the first frame (600 px).
 */
export const wumpusPreviewSchema = z.object({
  webp: z.string(),
  webp2x: z.string(),
  still: z.string(),
})
export type WumpusPreview = z.infer<typeof wumpusPreviewSchema>

/** An emoji on an animation: the fully qualified character, its CLDR name and its GitHub shortcode ("wave") when it has one. */
export const stickerEmojiSchema = z.object({ char: z.string(), name: z.string(), shortcode: z.string().optional() })
export type StickerEmoji = z.infer<typeof stickerEmojiSchema>

/**
 * An animation as the API returns it. gif, apng and lottie are URLs on our own server; `preview` is
 * there once the server has made the card previews (until then cards show the GIF).
 */
export const wumpusSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  gif: z.string(),
  apng: z.string(),
  lottie: z.string(),
  preview: wumpusPreviewSchema.optional(),
  /**
   * Its maker's email, which the app links to their profile. Absent where the maker is named by display name
   * only: a remix shown to anyone but its owner and admins, unless its maker is a contributor (docs/product.md).
   */
  u_email: z.string().optional(),
  u_name: z.string(),
  /** Lower-case words (see contract/search.ts); [] for animations that have none. */
  tags: z.array(z.string()),
  /**
   * Its emoji in order: the first EMOJI_PRIMARY are what WhatsApp, Signal and Discord get (contract/limits.ts).
   * [] for animations that have none; absent in copies saved offline before emoji existed.
   */
  emoji: z.array(stickerEmojiSchema).default([]),
  /** Search keywords (Telegram's too), lower case; [] when none. */
  keywords: z.array(z.string()).default([]),
  /** The licence it travels under (contract/licence.ts); absent in copies saved offline before licences existed. */
  licence: licenceSchema.default(DEFAULT_LICENCE),
  /** Who made it, as credited; '' means the gallery itself. */
  credit: z.string().default(''),
  /**
   * Marked sensitive by its maker or an admin: lists and searches leave it out unless the signed-in viewer
   * turned on "Show sensitive stickers"; its page opens by link with a label. Absent in copies saved offline before it existed.
   */
  sensitive: z.boolean().default(false),
  /** How many times it was downloaded (counted once per visitor and animation a day: docs/product.md#downloads). */
  downloads: z.number(),
  /**
   * The platforms with a ready export (GET /wumpus/{id}/stickers says 'ready'), in PLATFORMS order; what
   * `fits=` filters on. Always sent; absent in copies saved offline before it existed.
   */
  fits: z.array(platformSchema).optional(),
  /** ISO time of publishing; the gallery's newest-first order. */
  createdAt: z.string(),
  /**
   * Remixes only (contract/remix/remix-api.ts): the animation it was made from, the recipe it was made
   * with, and who may see it. A remix is never in the gallery, search, tags or a profile's list.
   */
  remixOf: z.string().optional(),
  // Type only: the recipe's code (zod refinements, the Lottie walkers) stays out of the home page's JS.
  recipe: z.custom<Recipe>((value) => typeof value === 'object' && value !== null).optional(),
  visibility: z.enum(['private', 'link']).optional(),
  /** Originals, on GET /api/wumpus/{id} only: how many remixes were made of it (by anyone). */
  remixes: z.number().optional(),
  /**
   * While an admin has it hidden (a report's `hide` decision, contract/reports.ts): when and by whom. Only
   * admins ever get a hidden animation; to everyone else it is not found.
   */
  hidden: z.object({ at: z.string(), by: z.string() }).optional(),
})
export type Wumpus = z.infer<typeof wumpusSchema>

export const wumpusListSchema = z.array(wumpusSchema)

/** The answer of a DELETE of an animation or pack: 1, or 0 when it was already gone. */
export const deletedCountSchema = z.object({ deletedCount: z.number() })
export type DeletedCount = z.infer<typeof deletedCountSchema>

/** Ids are 24 lowercase hex characters (ObjectId-like) on every store. */
export const idSchema = z.string().regex(ID_PATTERN, 'Not a valid id')

/** One tag as typed: normalized (lower case, no accents, spaces as hyphens), then checked. */
export const tagSchema = z
  .string()
  .max(200)
  .transform(normalizeTag)
  .superRefine((tag, ctx) => {
    const problem = tagProblem(tag)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })

/** GET /emoji: the emoji in use with how many animations carry each, most used first. */
export const emojiCountSchema = stickerEmojiSchema.extend({ count: z.number() })
export type EmojiCount = z.infer<typeof emojiCountSchema>
export const emojiListSchema = z.array(emojiCountSchema)

/** GET /tags: the tags in use, most used first. */
export const tagListQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) }).strict()
export const tagCountSchema = z.object({ tag: z.string(), count: z.number() })
export type TagCount = z.infer<typeof tagCountSchema>
export const tagListSchema = z.array(tagCountSchema)
