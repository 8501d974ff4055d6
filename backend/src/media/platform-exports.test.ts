import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { PLATFORM_RULES } from '../../../contract/stickers'
import { demoMascots } from './demo-set'
import { checkStickerFile } from './platform-check'
import { exportForPlatform } from './platform-exports'
import { decodeApng } from './test-fixtures/decode-apng'
import { decodeGif } from './test-fixtures/decode-gif'
import { heavyLottie, lottie } from './test-fixtures/lottie'

describe('exportForPlatform', () => {
  it('makes every platform file of a demo mascot fit its rules, readable by libvips where it can read it', async () => {
    const mascot = demoMascots().find((m) => m.slug === 'bouncy-wumpus')!
    for (const platform of ['discord', 'whatsapp', 'line', 'slack'] as const) {
      const result = await exportForPlatform(platform, mascot.lottie)
      expect(result.file, `${platform}: ${result.notes.join('; ')}`).toBeDefined()
      const bytes = result.file!.bytes
      expect(checkStickerFile(platform, bytes).problems).toEqual([])
      expect(bytes.length).toBeLessThanOrEqual(PLATFORM_RULES[platform].maxBytes)
      if (platform === 'whatsapp' || platform === 'slack') {
        const meta = await sharp(bytes, { pages: -1 }).metadata()
        expect([meta.width, meta.pageHeight, meta.pages]).toEqual([
          result.file!.facts.width,
          result.file!.facts.height,
          result.file!.facts.frames,
        ])
        expect(meta.delay!.every((ms) => ms >= 8)).toBe(true)
      } else {
        // libvips reads only an APNG's first frame; the test decoder plays all of them.
        expect((await sharp(bytes).metadata()).width).toBe(result.file!.facts.width)
        expect(decodeApng(bytes).frames).toHaveLength(result.file!.facts.frames)
      }
    }
  })

  it('steps down until a heavy animation fits, and says what it gave up', async () => {
    const heavy = heavyLottie()
    const discord = await exportForPlatform('discord', heavy)
    expect(discord.file).toBeDefined()
    expect(discord.file!.bytes.length).toBeLessThanOrEqual(512_000)
    expect(checkStickerFile('discord', discord.file!.bytes).problems).toEqual([])
    expect(discord.notes.join(' ')).toMatch(/instead of 30 fps to fit 512 KB/)
    expect(decodeApng(discord.file!.bytes).controls[0]!.delayMs).toBeCloseTo(1000 / 15)

    // Slack's 128 KB cannot hold it even at the bottom of the ladder: absent, with the smallest size tried.
    const slack = await exportForPlatform('slack', heavy)
    expect(slack.file).toBeUndefined()
    expect(slack.notes).toEqual([
      expect.stringMatching(
        /^Even at 128x128, \d+(\.\d)? fps and the lowest quality tried, the smallest file was \d+ KB; Slack allows 128 KB$/,
      ),
    ])
  }, 60_000)

  it('fits a long animation into LINE’s frames and plays, and refuses what runs too long', async () => {
    const line = await exportForPlatform('line', lottie({ op: 90 }))
    expect(line.file!.facts).toMatchObject({ width: 270, height: 270, frames: 20, plays: 1 })
    expect(line.notes).toEqual(['Plays once (3 s in all)', '20 frames at 6.7 fps, as LINE allows 5 to 20'])
    const tooLong = lottie({ op: 180 })
    expect(await exportForPlatform('line', tooLong)).toEqual({
      platform: 'line',
      notes: ['The animation runs 6 s; LINE allows 4 s in all'],
    })
    expect(await exportForPlatform('discord', tooLong)).toEqual({
      platform: 'discord',
      notes: ['The animation runs 6 s; Discord allows 5 s'],
    })
    expect((await exportForPlatform('whatsapp', tooLong)).file).toBeDefined()
  })

  it('keeps Slack within 50 frames by lowering the rate, and centres wide art on a square', async () => {
    const wide = lottie({ w: 640, h: 320, op: 120 })
    const slack = await exportForPlatform('slack', wide)
    // 48 frames at 12 fps, those that repeat shown longer.
    expect(slack.file!.facts).toMatchObject({ width: 128, height: 128, durationMs: 4000 })
    expect(slack.file!.facts.frames).toBeLessThanOrEqual(48)
    expect(slack.notes).toEqual(['12 fps so it fits in 50 frames', 'Centred on a square canvas'])
    const gif = decodeGif(slack.file!.bytes)
    // Wide art at 128 px is 64 px high, centred: the top and bottom rows stay clear.
    expect(gif.frames.every((f) => f.subarray(0, 128 * 4 * 30).every((v) => v === 0))).toBe(true)
  })

  it('turns demo stars into paths for Telegram and passes an independent read of the .tgs', async () => {
    for (const slug of ['cheering-wumpus', 'dizzy-wumpus']) {
      const mascot = demoMascots().find((m) => m.slug === slug)!
      const telegram = await exportForPlatform('telegram', mascot.lottie)
      expect(telegram.file, telegram.notes.join('; ')).toBeDefined()
      expect(telegram.notes.join(' ')).toMatch(/star shapes? (was|were) redrawn/)
      expect(telegram.file!.facts).toMatchObject({ width: 512, height: 512, fps: 60 })
      expect(telegram.file!.bytes.length).toBeLessThanOrEqual(64_000)
    }
  })

  it('leaves Telegram out, with the reason, for what it cannot convert', async () => {
    const masked = lottie({
      layers: [{ ...(lottie().layers as object[])[0], hasMask: true, masksProperties: [{ mode: 'a', pt: { a: 0, k: {} } }] }],
    })
    expect(await exportForPlatform('telegram', masked)).toEqual({ platform: 'telegram', notes: ['Telegram does not allow masks'] })
    expect(await exportForPlatform('telegram', lottie({ op: 120 }))).toEqual({
      platform: 'telegram',
      notes: ['It runs 4 s; Telegram allows 3 s'],
    })
  })
})
