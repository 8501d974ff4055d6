import { describe, expect, it } from 'vitest'
import { DISCORD_STICKER_NAME, discordStickerName } from './stickers'

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
})
