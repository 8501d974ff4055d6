// Remixes over HTTP: a person's own version of a sticker, made from a recipe (./recipe.ts).
//
// - POST /api/wumpus/{id}/remix with a recipe and, optionally, the remix's name (signed in, verified email):
//   201 { id }. Unnamed, it is "{original}, your version"; its description says whose remix of what it is, and
//   its files carry its name (waving-wumpus-your-version.discord.png). The remix is then an
//   animation at GET /api/wumpus/{remixId} (with remixOf, recipe and visibility), with files, previews and
//   /stickers like any other. Its GIF, APNG and Lottie are made before the answer; previews and chat app
//   files follow through the render queue, as for a new animation.
// - Private unless shared: 404 to anyone but its owner and admins while private; PUT
//   /api/wumpus/{remixId}/sharing { visibility } by its owner shares it by link (or makes it private again).
// - PUT /api/wumpuses/{remixId} by its owner renames it (updateRemixSchema); its files follow the new name.
// - DELETE /api/wumpus/{remixId} by its owner (or an admin) removes it and its files.
// - GET /api/me/remixes: one's own remixes, newest first, paged.
// - Refused: a remix of a remix (CONFLICT, reason remix-of-remix: edit the original again), more than
//   REMIXES_MAX per account (CONFLICT, reason remixes-full), colours for slots the sticker does not have
//   (BAD_REQUEST, reason unknown-colour-slot), caption characters the font lacks (BAD_REQUEST, reason
//   caption-characters), an edit past the complexity caps (BAD_REQUEST, as an upload would be), a busy
//   render queue (SERVER_BUSY with Retry-After), and more than the render rate limit (RATE_LIMITED).
// - Made again when the original's Lottie changes; removed with the original.
import { z } from 'zod'
import { updateWumpusSchema } from '../wumpus-write'
import { recipeSchema } from './recipe'
import { remixNameSchema } from './remix-name'

export const REMIX_VISIBILITIES = ['private', 'link'] as const
export type RemixVisibility = (typeof REMIX_VISIBILITIES)[number]

/**
 * PUT /api/wumpuses/{remixId} by its maker: as for any animation (never its files: a new recipe is a new remix),
 * with the remix's name rules. Its files are downloaded under its new name.
 */
export const updateRemixSchema = updateWumpusSchema.extend({ name: remixNameSchema.optional() }).strict()
export type UpdateRemix = z.input<typeof updateRemixSchema>

/** POST /api/wumpus/{id}/remix: the recipe, and the remix's name (left out: defaultRemixName). */
export const remixRequestSchema = recipeSchema.extend({ name: remixNameSchema.optional() }).strict()
export type RemixRequest = z.output<typeof remixRequestSchema>

/** POST /api/wumpus/{id}/remix answers the new remix's id. */
export const remixCreatedSchema = z.object({ id: z.string() })
export type RemixCreated = z.infer<typeof remixCreatedSchema>

/** PUT /api/wumpus/{remixId}/sharing. */
export const remixSharingSchema = z
  .object({ visibility: z.enum(REMIX_VISIBILITIES, { message: `visibility is one of ${REMIX_VISIBILITIES.join(', ')}` }) })
  .strict()
export type RemixSharing = z.infer<typeof remixSharingSchema>

/** The `reason` in an error's details, for the refusals a client may explain in its own words. */
export const REMIX_REFUSALS = ['remix-of-remix', 'remixes-full', 'unknown-colour-slot', 'caption-characters'] as const
export type RemixRefusal = (typeof REMIX_REFUSALS)[number]
