import { describe, expect, it } from 'vitest'
import { LINE_SET_SIZES, LINE_ZIP_MAX_BYTES, PACK_IMAGE_MAX_BYTES } from './limits'
import { DISCORD_STICKER_NAME, discordNameNote, discordStickerName, PLATFORM_RULES } from './stickers'

describe('discordStickerName', () => {
  it('keeps a name of 2 to 30 characters as it is', () => {
    expect(discordStickerName('Waving Wumpus')).toEqual({ name: 'Waving Wumpus', cut: false })
    expect(discordStickerName('Hi')).toEqual({ name: 'Hi', cut: false })
    expect(discordStickerName('x'.repeat(30))).toEqual({ name: 'x'.repeat(30), cut: false })
  })

  it('cuts a longer name at a word, never inside an emoji, and gives a one-letter name a fallback', () => {
    const long = discordStickerName('The Very Sleepy Wumpus, after a long day at the office')
    expect(long).toEqual({ name: 'The Very Sleepy Wumpus, after', cut: true })
    expect([...long.name].length).toBeLessThanOrEqual(DISCORD_STICKER_NAME.max)
    // One word of 40 letters is cut at 30.
    expect(discordStickerName('y'.repeat(40))).toEqual({ name: 'y'.repeat(30), cut: true })
    // 29 letters and an emoji of two UTF-16 units: 30 characters, kept whole.
    expect(discordStickerName(`${'z'.repeat(29)}🎉`).name).toBe(`${'z'.repeat(29)}🎉`)
    expect([...discordStickerName(`${'z'.repeat(30)}🎉🎉`).name]).toHaveLength(30)
    expect(discordStickerName('A')).toEqual({ name: 'Wumpus', cut: true })
  })

  it('gives a Discord file a note saying what to name it only when its name is not one Discord takes', () => {
    expect(discordNameNote('Waving Wumpus')).toBeUndefined()
    expect(discordNameNote('The Very Sleepy Wumpus, after a long day at the office')).toBe(
      'Name it “The Very Sleepy Wumpus, after” in Discord, which takes sticker names of 2 to 30 characters',
    )
  })
})

describe('LINE’s rules', () => {
  it('keep a full set of 24 within the 20 MB submission ZIP, with its main and tab images', () => {
    const set = Math.max(...LINE_SET_SIZES) * PLATFORM_RULES.line.maxBytes + 2 * PACK_IMAGE_MAX_BYTES
    expect(set).toBeLessThanOrEqual(LINE_ZIP_MAX_BYTES)
  })

  it('are those of LINE Creators Market’s animated sticker guidelines', () => {
    expect(PLATFORM_RULES.line).toMatchObject({
      kind: 'APNG',
      maxBytes: 300_000,
      maxDurationMs: 4000,
      canvas: { maxWidth: 320, maxHeight: 270, minLongSide: 270 },
      minFrames: 5,
      maxFrames: 20,
      plays: { min: 1, max: 4 },
    })
    expect(LINE_SET_SIZES).toEqual([8, 16, 24])
  })
})
