import { describe, expect, it } from 'vitest'
import { demoMascots } from '../demo/demo-set'
import { renderLottie } from './render-lottie'
import { chroma, hexToRgb, rgbToLab } from '../../../../contract/remix/colour-space'
import { colourPresets, colourSlots, COLOUR_SLOTS_MAX, recolour } from '../../../../contract/remix/colours'
import type { Lottie } from '../../../../contract/remix/lottie-walk'
import { mirrored, withSpeed } from '../../../../contract/remix/motion'
import { CAPTION_MAX, withCaption } from '../../../../contract/remix/caption'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import opentype from 'opentype.js'
import { CAPTION_FONT_FILES, captionFontFrom, captionRefusal } from '../../../../contract/remix/caption-font'
import { captionFont } from './caption-font'
import { withOutline, withoutOutline } from '../../../../contract/remix/outline'
import { applyRecipe, outlineFor, recipeFromSearch, recipeSchema, recipeToSearch, type Recipe } from '../../../../contract/remix/recipe'
import { checkStickerFile } from '../exports/platform-check'
import { exportForPlatform } from '../exports/platform-exports'
import { whiteRing } from '../../../test/fixtures/frame-error'

const mascots = demoMascots()
const waving = mascots.find((mascot) => mascot.slug === 'waving-wumpus')!.lottie as Lottie
const SIZE = 64

/** Every colour the drawing uses, as `#rrggbb`. */
const allColours = (lottie: Lottie) => new Set(colourSlots(lottie).flatMap((slot) => slot.members))

/** One frame (0-based, at the Lottie's own rate) as RGBA bytes. */
async function frame(lottie: Lottie, index: number): Promise<Uint8Array> {
  return (await renderLottie(lottie, { size: SIZE, fps: lottie.fr })).frames[index]!
}

/** Mean absolute difference of two RGBA frames, per channel (0 to 255). */
function difference(a: Uint8Array, b: Uint8Array): number {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!)
  return sum / a.length
}

function flipped(rgba: Uint8Array): Uint8Array {
  const out = new Uint8Array(rgba.length)
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) out.set(rgba.subarray((y * SIZE + x) * 4, (y * SIZE + x) * 4 + 4), (y * SIZE + SIZE - 1 - x) * 4)
  }
  return out
}

/** A 100x100 square painted with a two-stop gradient from red to blue. */
const gradientSquare = (): Lottie => ({
  v: '5.7.4',
  fr: 30,
  ip: 0,
  op: 30,
  w: 100,
  h: 100,
  layers: [
    {
      ty: 4,
      ind: 1,
      ip: 0,
      op: 30,
      st: 0,
      ks: { o: { a: 0, k: 100 }, r: { a: 0, k: 0 }, a: { a: 0, k: [0, 0] }, s: { a: 0, k: [100, 100] }, p: { a: 0, k: [50, 50] } },
      shapes: [
        { ty: 'rc', p: { a: 0, k: [0, 0] }, s: { a: 0, k: [80, 80] }, r: { a: 0, k: 0 } },
        {
          ty: 'gf',
          t: 1,
          s: { a: 0, k: [-40, 0] },
          e: { a: 0, k: [40, 0] },
          o: { a: 0, k: 100 },
          g: { p: 2, k: { a: 0, k: [0, 1, 0, 0, 1, 0, 0, 1] } },
        },
      ],
    },
  ],
})

describe('colour slots', () => {
  it('groups a mascot’s shades: the body and its belly move as one slot, the ink stays apart', () => {
    for (const mascot of mascots) {
      const slots = colourSlots(mascot.lottie as Lottie)
      expect(slots.length).toBeLessThanOrEqual(COLOUR_SLOTS_MAX)
      // Every colour is in exactly one slot.
      const members = slots.flatMap((slot) => slot.members)
      expect(new Set(members).size).toBe(members.length)
      expect(slots.reduce((sum, slot) => sum + slot.share, 0)).toBeCloseTo(1, 1)
      // The body covers the most, and carries a shade of itself.
      expect(slots[0]!.share).toBeGreaterThan(0.6)
      expect(slots[0]!.members.length).toBeGreaterThan(1)
      expect(slots[0]!.members).not.toContain('#1b1530')
    }
  })

  it('finds none in what is not a drawing, without throwing', () => {
    for (const broken of [{}, { layers: 'x' }, { layers: [null, 3, { ty: 4, shapes: 'x' }], assets: [{ layers: 7 }] }]) {
      expect(colourSlots(broken as unknown as Lottie)).toEqual([])
    }
  })

  it('gives the same slots for the same drawing, every time', () => {
    expect(colourSlots(structuredClone(waving))).toEqual(colourSlots(waving))
  })

  it('recolours a slot: its colour becomes the chosen one, its shades follow, other slots and the original stay', () => {
    const before = structuredClone(waving)
    const [body, ...others] = colourSlots(waving)
    const edited = recolour(waving, { [body!.id]: '#e0457b' })
    expect(waving).toEqual(before)
    const after = allColours(edited)
    expect(after).toContain('#e0457b')
    for (const member of body!.members) expect(after).not.toContain(member)
    for (const slot of others) for (const member of slot.members) expect(after).toContain(member)
    // A shade stays darker or lighter than the body, as before.
    const lightness = (hex: string) => rgbToLab(hexToRgb(hex)).L
    const shade = body!.members.find((member) => member !== body!.colour)!
    const newSlot = colourSlots(edited).find((slot) => slot.colour === '#e0457b')!
    const newShade = newSlot.members.filter((member) => member !== '#e0457b')
    expect(
      newShade.some((hex) => Math.sign(lightness(hex) - lightness('#e0457b')) === Math.sign(lightness(shade) - lightness(body!.colour))),
    ).toBe(true)
  })

  it('recolours gradients stop by stop', () => {
    const square = gradientSquare()
    const slots = colourSlots(square)
    expect(slots.map((slot) => slot.colour).sort()).toEqual(['#0000ff', '#ff0000'])
    const edited = recolour(square, { ff0000: '#00ff00' })
    const stops = (edited.layers[0]!.shapes as { g?: { k: { k: number[] } } }[])[1]!.g!.k.k
    expect(stops).toEqual([0, 0, 1, 0, 1, 0, 0, 1])
  })

  it('offers night, pastel and mono presets for every slot', () => {
    const slots = colourSlots(waving)
    const presets = colourPresets(slots)
    expect(presets.map((preset) => preset.id)).toEqual(['night', 'pastel', 'mono'])
    for (const preset of presets) expect(Object.keys(preset.colours).sort()).toEqual(slots.map((slot) => slot.id).sort())
    const mono = presets.find((preset) => preset.id === 'mono')!
    for (const hex of Object.values(mono.colours)) expect(chroma(rgbToLab(hexToRgb(hex)))).toBeLessThan(0.01)
    const night = presets.find((preset) => preset.id === 'night')!
    const lightness = (hex: string) => rgbToLab(hexToRgb(hex)).L
    expect(lightness(night.colours[slots[0]!.id]!)).toBeLessThan(lightness(slots[0]!.colour))
  })
})

describe('speed', () => {
  it('plays faster or slower by moving keyframes: frame i shows the original’s frame i x speed, first to last', async () => {
    const original = await renderLottie(waving, { size: SIZE, fps: waving.fr })
    const last = original.frames.length - 1
    for (const speed of [2, 0.5]) {
      const edited = withSpeed(waving, speed)
      expect(edited.op - edited.ip).toBe(Math.round((waving.op - waving.ip) / speed))
      expect(JSON.stringify(edited)).not.toContain('"tm"')
      const frames = (await renderLottie(edited, { size: SIZE, fps: edited.fr })).frames
      // The first frame, one in the middle, and the last whole-step frame of the original.
      for (const i of [0, 10, Math.floor(last / speed / 2) * 2]) {
        expect(difference(frames[i]!, original.frames[i * speed]!)).toBeLessThan(0.5)
      }
      expect(difference(frames[0]!, frames[10]!)).toBeGreaterThan(0.5)
    }
  })

  it('keeps speeds within 0.5x to 2x', () => {
    expect(withSpeed(waving, 10).op).toBe(withSpeed(waving, 2).op)
    expect(withSpeed(waving, 0.1).op).toBe(withSpeed(waving, 0.5).op)
  })
})

describe('mirror', () => {
  it('flips the picture left to right', async () => {
    const [original, edited] = await Promise.all([frame(waving, 10), frame(mirrored(waving), 10)])
    expect(difference(original, edited)).toBeGreaterThan(2)
    expect(difference(flipped(original), edited)).toBeLessThan(1)
  })

  it('twice is the original', () => {
    expect(mirrored(mirrored(waving))).toEqual(waving)
  })
})

describe('caption', () => {
  const font = captionFont()
  /** How many pixels of a band of rows are opaque white-ish (the caption's fill). */
  const whiteIn = (rgba: Uint8Array, rows: [number, number]) => {
    let count = 0
    for (let y = rows[0]; y < rows[1]; y++) {
      for (let x = 0; x < SIZE; x++) {
        const at = (y * SIZE + x) * 4
        if (rgba[at + 3]! > 200 && rgba[at]! > 230 && rgba[at + 1]! > 230 && rgba[at + 2]! > 230) count++
      }
    }
    return count
  }

  it('sets the text as vector paths, not a text layer, on top from the first frame to the last', () => {
    const edited = withCaption(waving, { text: 'gm friends', position: 'top' }, font)
    const caption = edited.layers[0]!
    expect(edited.layers.some((layer) => layer.ty === 5)).toBe(false)
    expect(caption).toMatchObject({ ty: 4, nm: 'caption', ip: waving.ip, op: waving.op })
    const json = JSON.stringify(caption)
    expect(json.match(/"ty":"sh"/g)!.length).toBeGreaterThan(8)
    expect(edited.layers.slice(1)).toEqual(waving.layers)
  })

  it('draws it where asked, readable in the first frame', async () => {
    const [plain, top, bottom] = await Promise.all([
      frame(waving, 0),
      frame(withCaption(waving, { text: 'Hello!', position: 'top' }, font), 0),
      frame(withCaption(waving, { text: 'Hello!', position: 'bottom' }, font), 0),
    ])
    const topBand: [number, number] = [0, SIZE / 4]
    const bottomBand: [number, number] = [(SIZE * 3) / 4, SIZE]
    expect(whiteIn(top, topBand)).toBeGreaterThan(whiteIn(plain, topBand) + 20)
    expect(whiteIn(bottom, bottomBand)).toBeGreaterThan(whiteIn(plain, bottomBand) + 20)
    expect(whiteIn(top, bottomBand)).toBe(whiteIn(plain, bottomBand))
  })

  it('draws Cyrillic and Greek captions as letters on the server, as it draws Latin ones', async () => {
    const plain = await frame(waving, 0)
    /** Pixels of the top quarter that the caption changed. */
    const changed = (rgba: Uint8Array) => {
      let count = 0
      for (let at = 0; at < (SIZE * SIZE) / 4; at++) {
        if ([0, 1, 2, 3].some((c) => Math.abs(rgba[at * 4 + c]! - plain[at * 4 + c]!) > 40)) count++
      }
      return count
    }
    const captioned = async (text: string) => changed(await frame(withCaption(waving, { text, position: 'top' }, font), 0))
    // Here (64 px) "Hello!" changes about 200 of the band's 1,024 pixels, "Привет!" and "Γειά σου" about 300;
    // characters no caption font has change none (such a caption is refused before it is made: captionRefusal).
    expect(await captioned('Hello!')).toBeGreaterThan(100)
    expect(await captioned('Привет!')).toBeGreaterThan(100)
    expect(await captioned('Γειά σου')).toBeGreaterThan(100)
    expect(await captioned('字字字')).toBe(0)
  })

  it('fits the longest caption within the canvas, on two lines', () => {
    const text = 'the quick brown fox jumps over the lazy d'.slice(0, CAPTION_MAX)
    const caption = withCaption(waving, { text, position: 'bottom' }, font).layers[0]!
    const xs = [...JSON.stringify(caption).matchAll(/"v":(\[\[.*?\]\])/g)].flatMap((m) =>
      (JSON.parse(m[1]!) as number[][]).map((v) => v[0]!),
    )
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0)
    expect(Math.max(...xs)).toBeLessThanOrEqual(waving.w)
    expect((caption.shapes as unknown[]).length).toBe(2)
  })

  it('knows which characters its font cannot draw', () => {
    expect(font.missing('Café déjà vu')).toEqual([])
    expect(font.missing('hi 字🙂')).toEqual(['字', '🙂'])
  })

  it('takes Latin (Western and Central European), Greek, Cyrillic and Vietnamese letters', () => {
    for (const text of ['Café déjà vu', 'Zażółć gęślą jaźń', 'Γειά σου κόσμε', 'Привет, мир! Ґанок', 'Xin chào thế giới']) {
      expect(font.missing(text), text).toEqual([])
      expect(captionRefusal(text, font), text).toBeUndefined()
      expect(font.getAdvanceWidth(text, 100), text).toBeGreaterThan(100)
    }
  })

  it('sets a Latin caption exactly as its Latin font alone does', () => {
    const bytes = readFileSync(createRequire(import.meta.url).resolve(CAPTION_FONT_FILES[0]))
    const fredoka = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
    const alone = captionFontFrom([fredoka])
    expect(font.getPath('gm friends!', 10, 80, 48)).toEqual(alone.getPath('gm friends!', 10, 80, 48))
    expect(font.getAdvanceWidth('gm friends!', 48)).toBe(alone.getAdvanceWidth('gm friends!', 48))
    // Mixed scripts: each run by its own font, one after the other.
    expect(font.getAdvanceWidth('Hi Привет', 48)).toBeCloseTo(font.getAdvanceWidth('Hi ', 48) + font.getAdvanceWidth('Привет', 48), 6)
  })

  it('says why it refuses a caption, by script', () => {
    expect(captionRefusal('مرحبا', font)).toMatch(/^Arabic script is not supported yet\. Captions take Latin, Greek and Cyrillic/)
    expect(captionRefusal('שלום', font)).toMatch(/^Hebrew script is not supported yet\./)
    expect(captionRefusal('こんにちは', font)).toMatch(/^Japanese script is not supported yet\./)
    expect(captionRefusal('gm 👋🏽', font)).toMatch(/^Emoji cannot be drawn in a caption yet\./)
    expect(captionRefusal('❤️', font)).toMatch(/^Emoji cannot be drawn/)
    expect(captionRefusal('a ✦ b', font)).toMatch(/^The caption font cannot draw “✦”\./)
  })
})

describe('outline', () => {
  it('draws a white rim around the silhouette, under the drawing', async () => {
    const outlined = withOutline(waving)
    expect(outlined.layers.slice(0, -1)).toEqual(waving.layers)
    expect(withoutOutline(outlined)).toEqual(waving)
    expect(withoutOutline(waving)).toBeUndefined()
    const [plain, rimmed] = await Promise.all([frame(waving, 0), frame(outlined, 0)])
    // A ring of new white pixels around the body (a 64 px frame: a 2 px ring around the body is over a hundred pixels).
    expect(whiteRing(plain, rimmed)).toBeGreaterThan(60)
  })
})

describe('a recipe', () => {
  const font = captionFont()
  const [body] = colourSlots(waving)
  const recipe: Recipe = recipeSchema.parse({
    colours: { [body!.id]: '#E0457B' },
    caption: { text: ' gm friends ', position: 'top' },
    speed: 1.5,
    mirror: true,
  })

  it('is checked by its schema', () => {
    expect(recipe.colours).toEqual({ [body!.id]: '#e0457b' })
    expect(recipe.caption).toEqual({ text: 'gm friends', position: 'top' })
    for (const bad of [
      { speed: 3 },
      { colours: { [body!.id]: 'red' } },
      { caption: { text: 'x'.repeat(41), position: 'top' } },
      { caption: { text: 'two\nlines', position: 'top' } },
      { tilt: 5 },
    ]) {
      expect(recipeSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false)
    }
  })

  it('travels in a page address and comes back the same', () => {
    const withOutlineOff = { ...recipe, outline: false }
    expect(recipeFromSearch(recipeToSearch(withOutlineOff))).toEqual(withOutlineOff)
    expect(recipeFromSearch({ s: '9', c: 'zz-123', m: '1' })).toEqual({ mirror: true })
  })

  it('outlines the files of apps that recommend it, unless it says', () => {
    expect(outlineFor({}, 'whatsapp')).toBe(true)
    expect(outlineFor({}, 'telegram')).toBe(true)
    expect(outlineFor({}, 'discord')).toBe(false)
    expect(outlineFor({ outline: false }, 'telegram')).toBe(false)
    expect(outlineFor({ outline: true }, 'slack')).toBe(true)
  })

  it('makes a Telegram sticker that still passes Telegram’s rules', async () => {
    for (const mascot of mascots) {
      const edited = applyRecipe(mascot.lottie as Lottie, recipe, { font, outline: outlineFor(recipe, 'telegram') })
      const telegram = await exportForPlatform('telegram', edited)
      expect(telegram.file, `${mascot.slug}: ${telegram.notes.join('; ')}`).toBeDefined()
      expect(checkStickerFile('telegram', telegram.file!.bytes).problems, mascot.slug).toEqual([])
    }
  })
})
