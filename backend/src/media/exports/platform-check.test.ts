import { randomBytes } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { checkStickerFile } from './platform-check'
import { buildGif } from '../../../test/fixtures/gif'
import { webpAnimated } from '../../../test/fixtures/image'
import { lottie } from '../../../test/fixtures/lottie'
import { apngChunks, buildApng, buildPng, chunk, ihdr } from '../../../test/fixtures/png'

// Files built by hand (test-fixtures), so the checks are proven against bytes no encoder of ours wrote.
const apng = (size: number, frames: number, options: { plays?: number; delayNum?: number; delayDen?: number; width?: number } = {}) =>
  buildApng({
    width: options.width ?? size,
    height: size,
    plays: options.plays ?? 0,
    frames: Array.from({ length: frames }, () => ({ delayNum: options.delayNum ?? 1, delayDen: options.delayDen ?? 10 })),
  })
const tgs = (overrides: Record<string, unknown>) =>
  new Uint8Array(gzipSync(JSON.stringify(lottie({ fr: 60, ip: 0, op: 120, w: 512, h: 512, ...overrides }))))
const emojiTgs = (overrides: Record<string, unknown>) => tgs({ w: 100, h: 100, ...overrides })
/** A 128x128 GIF of full frames that do not compress (about 9.3 KB each). */
const fullFrames = (count: number) =>
  buildGif({ width: 128, height: 128, loop: 0, frames: Array.from({ length: count }, () => ({ delayCs: 4 })) })
const layer = (extra: Record<string, unknown>) => ({ ...(lottie().layers as object[])[0], ...extra })
const shapes = (...list: object[]) => ({ layers: [layer({ shapes: list })] })

describe('checkStickerFile', () => {
  it('refuses a Signal APNG with a palette (Signal on iPhone shows it as a still), and takes it for Discord', () => {
    const [, ...rest] = apngChunks({ width: 320, height: 320 })
    const indexed = buildPng([ihdr(320, 320, 8, 3), chunk('PLTE', [0, 0, 0, 255, 255, 255]), ...rest])
    expect(checkStickerFile('signal', indexed).problems).toEqual(['It has a palette; Signal on iPhone plays only a truecolour APNG'])
    expect(checkStickerFile('discord', indexed).problems).toEqual([])
    expect(checkStickerFile('signal', apng(320, 3)).problems).toEqual([])
  })

  it('accepts files that keep every rule and reports what it read', () => {
    expect(checkStickerFile('discord', apng(320, 10))).toMatchObject({
      problems: [],
      facts: { width: 320, height: 320, frames: 10, durationMs: 1000, plays: 0, contentType: 'image/apng' },
    })
    expect(checkStickerFile('signal', apng(400, 3)).problems).toEqual([])
    expect(checkStickerFile('line', apng(270, 10, { plays: 3 })).problems).toEqual([])
    expect(
      checkStickerFile(
        'slack',
        buildGif({ width: 128, height: 128, loop: 0, frames: Array.from({ length: 50 }, () => ({ delayCs: 4, width: 8, height: 8 })) }),
      ).problems,
    ).toEqual([])
    expect(
      checkStickerFile(
        'whatsapp',
        webpAnimated(512, 512, [
          { width: 512, height: 512, durationMs: 40 },
          { x: 100, y: 100, width: 50, height: 50, durationMs: 40 },
        ]),
      ).problems,
    ).toEqual([])
    expect(checkStickerFile('telegram', tgs({}))).toMatchObject({
      problems: [],
      facts: { width: 512, height: 512, frames: 120, durationMs: 2000, fps: 60 },
    })
  })

  it('checks Discord emoji: a 128x128 GIF of at most 256 KiB, read in binary kilobytes, of any length', () => {
    // 300 frames of 4 cs: 12 s, which emoji may run.
    const long = buildGif({
      width: 128,
      height: 128,
      loop: 0,
      frames: Array.from({ length: 300 }, () => ({ delayCs: 4, width: 8, height: 8 })),
    })
    expect(checkStickerFile('discord-emoji', long)).toMatchObject({
      problems: [],
      facts: { contentType: 'image/gif', width: 128, height: 128, frames: 300, durationMs: 12_000, plays: 0 },
    })
    // Over 256,000 bytes but within 262,144 (256 KiB): fits.
    const within = fullFrames(28)
    expect(within.length).toBeGreaterThan(256_000)
    expect(within.length).toBeLessThanOrEqual(262_144)
    expect(checkStickerFile('discord-emoji', within).problems).toEqual([])
    const over = fullFrames(29)
    expect(over.length).toBeGreaterThan(262_144)
    expect(checkStickerFile('discord-emoji', over)).toMatchObject({
      overCap: true,
      problems: [`${Math.round(over.length / 1000)} KB is over Discord emoji's limit of 256 KiB`],
    })
    expect(
      checkStickerFile('discord-emoji', buildGif({ width: 320, height: 320, loop: 0, frames: [{ width: 8, height: 8 }] })).problems,
    ).toEqual(['320x320 is not the 128x128 Discord emoji asks for'])
    expect(checkStickerFile('discord-emoji', apng(128, 2)).problems[0]).toMatch(/cannot be read as GIF/)
  })

  it('checks Telegram emoji: a .tgs on a 100x100 canvas at 60 fps, at most 3 s and 64 KB', () => {
    expect(checkStickerFile('telegram-emoji', emojiTgs({ op: 180 }))).toMatchObject({
      problems: [],
      facts: { contentType: 'application/x-tgsticker', width: 100, height: 100, frames: 180, durationMs: 3000, fps: 60 },
    })
    // A sticker's canvas is not an emoji's, nor the other way round.
    expect(checkStickerFile('telegram-emoji', tgs({})).problems).toEqual(['512x512 is not the 100x100 Telegram emoji asks for'])
    expect(checkStickerFile('telegram', emojiTgs({})).problems).toEqual(['100x100 is not the 512x512 Telegram asks for'])
    expect(checkStickerFile('telegram-emoji', emojiTgs({ op: 181 })).problems).toEqual(['It runs 3.02 s; Telegram emoji allows 3 s'])
    expect(checkStickerFile('telegram-emoji', emojiTgs({ fr: 30, op: 60 })).problems).toEqual(['It runs at 30 fps, not 60'])
    // Random text in the name does not compress: a .tgs over 64,000 bytes.
    const heavy = emojiTgs({ nm: randomBytes(80_000).toString('base64') })
    expect(heavy.length).toBeGreaterThan(64_000)
    expect(checkStickerFile('telegram-emoji', heavy)).toMatchObject({
      overCap: true,
      problems: [`${Math.round(heavy.length / 1000)} KB is over Telegram emoji's limit of 64 KB`],
    })
  })

  it('finds size, canvas, duration, frame and play problems', () => {
    const heavy = fullFrames(16)
    expect(heavy.length).toBeGreaterThan(128_000)
    expect(checkStickerFile('slack', heavy)).toMatchObject({
      overCap: true,
      problems: [`${Math.round(heavy.length / 1000)} KB is over Slack's limit of 128 KB`],
    })
    expect(checkStickerFile('discord', apng(300, 10)).problems).toEqual(['300x300 is not the 320x320 Discord asks for'])
    expect(checkStickerFile('discord', apng(320, 60, { delayNum: 1, delayDen: 10 })).problems).toEqual(['It runs 6 s; Discord allows 5 s'])
    expect(checkStickerFile('signal', apng(512, 3, { width: 400 })).problems).toEqual(['400x512 is not square'])
    expect(checkStickerFile('signal', apng(400, 3, { plays: 2 })).problems).toEqual(['It does not loop forever'])
    expect(checkStickerFile('signal', apng(320, 31)).problems).toEqual(['It runs 3.1 s; Signal allows 3 s'])
    expect(checkStickerFile('line', apng(300, 10, { plays: 1 })).problems).toEqual(['300x300 does not fit within 320x270'])
    expect(checkStickerFile('line', apng(200, 10, { plays: 1 })).problems).toEqual(['200x200 has no side of at least 270 pixels'])
    expect(checkStickerFile('line', apng(270, 4, { plays: 1 })).problems).toEqual(['4 frames are fewer than 5'])
    expect(checkStickerFile('line', apng(270, 21, { plays: 1, delayNum: 1, delayDen: 20 })).problems).toEqual([
      '21 frames are more than 20',
    ])
    expect(checkStickerFile('line', apng(270, 10)).problems).toEqual(['It plays forever; LINE allows 1 to 4'])
    expect(checkStickerFile('line', apng(270, 10, { plays: 5 })).problems).toEqual(['It plays 5 times; LINE allows 1 to 4'])
    expect(checkStickerFile('line', apng(270, 15, { plays: 3 })).problems).toEqual(['3 plays of 1.5 s run over 4 s'])
    expect(
      checkStickerFile(
        'slack',
        buildGif({ width: 128, height: 128, loop: 0, frames: Array.from({ length: 51 }, () => ({ delayCs: 4, width: 8, height: 8 })) }),
      ).problems,
    ).toEqual(['51 frames are more than 50'])
  })

  it('refuses an animated WebP with a cropped first frame, too short frames or no animation', () => {
    expect(
      checkStickerFile('whatsapp', webpAnimated(512, 512, [{ x: 10, y: 10, width: 400, height: 400, durationMs: 40 }])).problems,
    ).toEqual(['Its first frame does not cover the whole canvas'])
    expect(checkStickerFile('whatsapp', webpAnimated(512, 512, [{ width: 512, height: 512, durationMs: 5 }])).problems).toEqual([
      'A frame lasts 5 ms, under 8 ms',
    ])
    expect(checkStickerFile('whatsapp', webpAnimated(512, 512, [{ width: 512, height: 512, durationMs: 11_000 }])).problems).toEqual([
      'It runs 11 s; WhatsApp allows 10 s',
    ])
  })

  it('refuses a file of another kind, or broken bytes, with the reader’s reason', () => {
    expect(checkStickerFile('discord', buildGif()).problems[0]).toMatch(/cannot be read as APNG/)
    expect(checkStickerFile('slack', apng(128, 2)).problems[0]).toMatch(/cannot be read as GIF/)
    expect(checkStickerFile('telegram', new TextEncoder().encode('{}')).problems[0]).toMatch(/not gzip data/)
  })

  it('walks a .tgs for everything Telegram refuses, and checks its canvas, rate and length', () => {
    const refused: Array<[string, Record<string, unknown>]> = [
      ['expressions', shapes({ ty: 'el', p: { a: 0, k: [0, 0], x: 'wiggle(2, 10)' }, s: { a: 0, k: [80, 80] } })],
      ['masks', { layers: [layer({ hasMask: true, masksProperties: [{ mode: 'a' }] })] }],
      ['layer effects', { layers: [layer({ ef: [{ ty: 5 }] })] }],
      ['image layers', { layers: [layer({ ty: 2, refId: 'image_0' })] }],
      ['images', { assets: [{ id: 'image_0', w: 10, h: 10, p: 'img.png', u: '' }] }],
      ['solid layers', { layers: [layer({ ty: 1, sc: '#ff0000' })] }],
      ['text layers', { layers: [layer({ ty: 5, t: {} })] }],
      ['3D layers', { layers: [layer({ ddd: 1 })] }],
      ['merge paths', shapes({ ty: 'mm', mm: 1 })],
      ['star shapes', shapes({ ty: 'sr', sy: 1, pt: { a: 0, k: 5 } })],
      ['gradient strokes', shapes({ ty: 'gs' })],
      ['repeaters', shapes({ ty: 'rp' })],
      ['time stretching', { layers: [layer({ sr: 2 })] }],
      ['time remapping', { layers: [layer({ tm: { a: 0, k: 0 } })] }],
      ['auto-oriented layers', { layers: [layer({ ao: 1 })] }],
    ]
    for (const [feature, overrides] of refused) {
      expect(checkStickerFile('telegram', tgs(overrides)).problems, feature).toEqual([`Telegram does not allow ${feature}`])
      expect(checkStickerFile('telegram-emoji', emojiTgs(overrides)).problems, `emoji: ${feature}`).toEqual([
        `Telegram does not allow ${feature}`,
      ])
    }
    expect(checkStickerFile('telegram', tgs({ fr: 30, op: 60 })).problems).toEqual(['It runs at 30 fps, not 60'])
    expect(checkStickerFile('telegram', tgs({ w: 320, h: 320 })).problems).toEqual(['320x320 is not the 512x512 Telegram asks for'])
    expect(checkStickerFile('telegram', tgs({ op: 180 })).problems).toEqual([])
    expect(checkStickerFile('telegram', tgs({ op: 181 })).problems).toEqual(['It runs 3.02 s; Telegram allows 3 s'])
    expect(checkStickerFile('telegram', tgs({ op: 240 })).problems).toEqual(['It runs 4 s; Telegram allows 3 s'])
  })
})
