import { describe, expect, it } from 'vitest'
import { DISCORD_STICKER_NAME, DISCORD_STICKER_TAGS } from '../../../contract/stickers'
import { demoMascots } from '../media/demo/demo-set'
import type { WumpusRecord } from '../store/port'
import { discordEmojiTag } from './discord-rules'
import { discordSticker } from './pack-manifests'

const record = (name: string, emoji: WumpusRecord['emoji']) => ({ _id: 'a'.repeat(24), name, emoji }) as WumpusRecord

describe('Discord sticker names and tags', () => {
  it('tags a sticker with the Discord name of its emoji', () => {
    expect(discordEmojiTag('👋')).toBe('wave')
    // Discord suggests 👍 by "thumbsup", not "+1".
    expect(discordEmojiTag('👍')).toBe('thumbsup')
    expect(discordEmojiTag('❤️')).toBe('heart')
    expect(discordEmojiTag('❤')).toBe('heart')
    expect(discordEmojiTag('🥰')).toBe('smiling_face_with_3_hearts')
    expect(discordEmojiTag('not an emoji')).toBeUndefined()
  })

  it('gives every demo sticker a name of 2 to 30 characters and its emoji’s name as tag', () => {
    for (const mascot of demoMascots()) {
      const sticker = discordSticker(
        record(
          mascot.name,
          mascot.emoji.map((char) => ({ char, name: '' })),
        ),
      )
      expect([...sticker.name].length, mascot.name).toBeGreaterThanOrEqual(DISCORD_STICKER_NAME.min)
      expect([...sticker.name].length, mascot.name).toBeLessThanOrEqual(DISCORD_STICKER_NAME.max)
      expect(sticker.tags, mascot.name).toMatch(/^\w+$/)
      expect(sticker.tags.length).toBeGreaterThanOrEqual(DISCORD_STICKER_TAGS.min)
      expect(sticker.emoji).toBe(mascot.emoji[0])
    }
    const long = discordSticker(record('A wumpus with a name far longer than Discord takes', []))
    expect(long).toEqual({ name: 'A wumpus with a name far', nameCut: true, tags: 'slight_smile', emoji: '🙂' })
  })
})
