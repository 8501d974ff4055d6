// A remix recipe: the edits a person makes to a sticker, as data. One function applies it, in the browser's
// live preview and in the server's render alike, so what the editor shows is what the files hold.
import { z } from 'zod'
import type { Platform } from '../platforms'
import { CAPTION_MAX, CAPTION_POSITIONS, withCaption, type CaptionFont } from './caption'
import { COLOUR_SLOTS_MAX, recolour } from './colours'
import type { Lottie } from './lottie-walk'
import { mirrored, SPEED_MAX, SPEED_MIN, withSpeed } from './motion'
import { withOutline } from './outline'

export const hexColourSchema = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Use a colour like #ff7fa6')
  .transform((hex) => hex.toLowerCase())

export const recipeSchema = z
  .object({
    /** New colours by slot id (GET /api/wumpus/{id}/colours lists the slots). */
    colours: z
      .record(z.string().regex(/^[0-9a-f]{6}$/, 'Not a colour slot of this sticker'), hexColourSchema)
      .refine((colours) => Object.keys(colours).length <= COLOUR_SLOTS_MAX, `A sticker has at most ${COLOUR_SLOTS_MAX} colour slots`)
      .optional(),
    caption: z
      .object({
        text: z
          .string()
          .trim()
          // Accents as one character each (é, not e and a combining accent), as the fonts draw them.
          .normalize('NFC')
          .min(1, 'Write a caption, or remove it')
          .max(CAPTION_MAX, `A caption has at most ${CAPTION_MAX} characters`)
          // eslint-disable-next-line no-control-regex
          .regex(/^[^\u0000-\u001f\u007f]+$/, 'A caption is one line of text'),
        position: z.enum(CAPTION_POSITIONS),
      })
      .strict()
      .optional(),
    /** A white outline; left out, the files of apps that recommend one (WhatsApp, Telegram) get it. */
    outline: z.boolean().optional(),
    speed: z
      .number()
      .min(SPEED_MIN, `Speed is ${SPEED_MIN}x to ${SPEED_MAX}x`)
      .max(SPEED_MAX, `Speed is ${SPEED_MIN}x to ${SPEED_MAX}x`)
      .optional(),
    mirror: z.boolean().optional(),
  })
  .strict()
export type Recipe = z.output<typeof recipeSchema>

/** GET /api/wumpus/{id}/colours: the colour slots a recipe can change, most covering first, and presets. */
export const colourChoicesSchema = z.object({
  slots: z.array(z.object({ id: z.string(), colour: z.string(), share: z.number().min(0).max(1) })),
  presets: z.array(z.object({ id: z.string(), name: z.string(), colours: z.record(z.string(), z.string()) })),
})
export type ColourChoices = z.infer<typeof colourChoicesSchema>

/** The chat apps whose sticker guidelines ask for a white outline. */
const OUTLINE_RECOMMENDED: readonly Platform[] = ['whatsapp', 'telegram']

/** Whether a file gets the outline: as the recipe says, or where the platform recommends one. */
export function outlineFor(recipe: Recipe, platform?: Platform): boolean {
  return recipe.outline ?? (platform !== undefined && OUTLINE_RECOMMENDED.includes(platform))
}

/**
 * The edited animation: recoloured, retimed, mirrored, outlined (when `outline`), then captioned (the
 * caption keeps its own stroke and reads left to right). The original is left as it was.
 */
export function applyRecipe<T extends Lottie>(lottie: T, recipe: Recipe, options: { font: CaptionFont; outline: boolean }): T {
  let edited = recolour(lottie, recipe.colours ?? {})
  if (recipe.speed !== undefined && recipe.speed !== 1) edited = withSpeed(edited, recipe.speed)
  if (recipe.mirror) edited = mirrored(edited)
  if (options.outline) edited = withOutline(edited)
  if (recipe.caption) edited = withCaption(edited, recipe.caption, options.font)
  return edited
}

/** The recipe in a page address, so an edit can be shared and opened again: `?c=8c9eff-e0457b&t=Hi&tp=top&o=1&s=1.5&m=1`. */
export function recipeToSearch(recipe: Recipe): Record<string, string> {
  const search: Record<string, string> = {}
  const colours = Object.entries(recipe.colours ?? {})
  if (colours.length > 0) search.c = colours.map(([slot, hex]) => `${slot}-${hex.slice(1)}`).join('.')
  if (recipe.caption) {
    search.t = recipe.caption.text
    search.tp = recipe.caption.position
  }
  if (recipe.outline !== undefined) search.o = recipe.outline ? '1' : '0'
  if (recipe.speed !== undefined && recipe.speed !== 1) search.s = String(recipe.speed)
  if (recipe.mirror) search.m = '1'
  return search
}

/** The recipe a page address holds; what does not parse is left out (an old or hand-edited link still opens). */
export function recipeFromSearch(search: Record<string, unknown>): Recipe {
  const text = (key: string) =>
    typeof search[key] === 'string' ? search[key] : typeof search[key] === 'number' ? String(search[key]) : undefined
  const colours = Object.fromEntries(
    (text('c') ?? '')
      .split('.')
      .map((pair) => pair.split('-'))
      .filter((pair): pair is [string, string] => pair.length === 2)
      .map(([slot, hex]) => [slot, `#${hex}`]),
  )
  const candidate = {
    colours: Object.keys(colours).length > 0 ? colours : undefined,
    caption: text('t') ? { text: text('t'), position: text('tp') === 'top' ? 'top' : 'bottom' } : undefined,
    outline: text('o') === undefined ? undefined : text('o') === '1',
    speed: text('s') === undefined ? undefined : Number(text('s')),
    mirror: text('m') === '1' ? true : undefined,
  }
  const recipe: Recipe = {}
  for (const key of Object.keys(candidate) as (keyof typeof candidate)[]) {
    const field = recipeSchema.shape[key].safeParse(candidate[key])
    if (field.success && field.data !== undefined) Object.assign(recipe, { [key]: field.data })
  }
  return recipe
}
