import { randomBytes } from 'node:crypto'
import { gunzipSync } from 'node:zlib'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { PLATFORM_RULES } from '../../../../contract/stickers'
import { demoMascots } from '../demo/demo-set'
import { checkStickerFile, checkStickerFileFully } from './platform-check'
import { exportForPlatform } from './platform-exports'
import { encodeAnimatedWebp } from '../encode/encode-webp'
import { FrameSource } from '../render/frame-source'
import { decodeApng } from '../../../test/fixtures/decode-apng'
import { decodeGif } from '../../../test/fixtures/decode-gif'
import { frameError, shownFrames, thresholded } from '../../../test/fixtures/frame-error'
import { heavyLottie, lottie } from '../../../test/fixtures/lottie'
import { renderLottie } from '../render/render-lottie'

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

  it('makes Signal a truecolour APNG (an indexed one is a still on iPhone) that plays every frame, within 300 KiB', async () => {
    const mascot = demoMascots().find((m) => m.slug === 'waving-wumpus')!
    const signal = await exportForPlatform('signal', mascot.lottie)
    expect(signal.file, signal.notes.join('; ')).toBeDefined()
    const bytes = signal.file!.bytes
    // IHDR's colour type: 6 is truecolour with alpha, 3 would be a palette.
    expect(bytes[25]).toBe(6)
    expect(checkStickerFile('signal', bytes).problems).toEqual([])
    expect(bytes.length).toBeLessThanOrEqual(300 * 1024)
    const decoded = decodeApng(bytes)
    expect(decoded.frames.length).toBeGreaterThan(1)
    expect(decoded.frames).toHaveLength(signal.file!.facts.frames)
  }, 60_000)

  it('plays a longer animation faster to fit Signal’s 3 s, and cuts what twice as fast still runs over', async () => {
    const four = await exportForPlatform('signal', lottie({ op: 120 }))
    expect(four.file!.facts).toMatchObject({ durationMs: 3000, plays: 0 })
    expect(four.notes).toContain('Plays 1.33 times as fast (4 s in 3 s) to fit Signal’s 3 s')
    expect(checkStickerFile('signal', four.file!.bytes).problems).toEqual([])

    const nine = await exportForPlatform('signal', lottie({ op: 270 }))
    expect(nine.file!.facts.durationMs).toBe(3000)
    expect(nine.notes).toEqual(
      expect.arrayContaining([
        'Plays 2 times as fast (9 s in 4.5 s) to fit Signal’s 3 s',
        'Cut to its first 3 s (of 4.5 s) to fit Signal’s 3 s',
      ]),
    )
    // Within 3 s, nothing is said about time.
    const two = await exportForPlatform('signal', lottie())
    expect(two.notes.join(' ')).not.toMatch(/as fast|Cut to/)
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

  it('starts WhatsApp’s and LINE’s files at a frame that shows the whole sticker when the animation grows from nothing, and says so', async () => {
    // The ball grows from nothing over its first half second, then bounces at full size.
    const growing = lottie()
    const layer = (growing.layers as Array<{ ks: Record<string, unknown> }>)[0]!
    layer.ks.s = {
      a: 1,
      k: [
        { t: 0, s: [0, 0, 100], i: { x: [0.5], y: [1] }, o: { x: [0.5], y: [0] } },
        { t: 15, s: [100, 100, 100] },
      ],
    }
    const whatsapp = await exportForPlatform('whatsapp', growing)
    expect(whatsapp.file, whatsapp.notes.join('; ')).toBeDefined()
    expect(whatsapp.notes).toContainEqual(
      expect.stringMatching(
        /^Starts 0\.[3-5]\d* s in, at its first frame that shows the whole sticker \(WhatsApp shows the first frame where animation is off\); the loop is the same$/,
      ),
    )
    const bytes = whatsapp.file!.bytes
    expect((await checkStickerFileFully('whatsapp', bytes)).problems).toEqual([])
    // Read back by libvips: the first frame shows at least 80% of the fullest frame's opaque pixels.
    const { data, info } = await sharp(bytes, { pages: -1 }).raw().toBuffer({ resolveWithObject: true })
    const page = info.width * info.pageHeight! * 4
    const cover = (n: number) => {
      let count = 0
      for (let i = n * page + 3; i < (n + 1) * page; i += 4) if (data[i]! >= 128) count++
      return count
    }
    const covers = Array.from({ length: info.pages! }, (_, n) => cover(n))
    expect(covers[0]).toBeGreaterThanOrEqual(Math.max(...covers) * 0.8)
    // LINE shows the first frame as the still too: its APNG starts at the same whole frame.
    const line = await exportForPlatform('line', growing)
    expect(line.notes.join(' ')).toMatch(/Starts 0\.[3-5]\d* s in, at its first frame that shows the whole sticker \(LINE shows/)
    const lineFrames = decodeApng(line.file!.bytes).frames
    const opaque = (frame: Uint8Array) => frame.filter((_, i) => i % 4 === 3 && frame[i]! >= 128).length
    expect(opaque(lineFrames[0]!)).toBeGreaterThanOrEqual(Math.max(...lineFrames.map(opaque)) * 0.8)
    // The same frames in the Lottie's order, starting from nothing, are refused: such a file is never offered.
    const asDrawn = await encodeAnimatedWebp(await new FrameSource(growing).square(512, 30), { fullFirstFrame: true })
    expect((await checkStickerFileFully('whatsapp', asDrawn.bytes)).problems).toEqual([
      expect.stringMatching(/^Its first frame shows \d+% of the sticker .*; at least 80% is needed$/),
    ])
  }, 60_000)

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

  it('keeps the author of the Lottie (meta.a) in the .tgs, leaving it out only when that alone keeps the file over 64 KB', async () => {
    const mascot = demoMascots().find((m) => m.slug === 'cheering-wumpus')!
    const credited = { ...mascot.lottie, meta: { g: 'LottieFiles AE', a: 'Ana Lima' } }
    const telegram = await exportForPlatform('telegram', credited)
    expect(telegram.file!.bytes.length).toBeLessThanOrEqual(64_000)
    expect(JSON.parse(gunzipSync(telegram.file!.bytes).toString('utf8')).meta).toEqual({ g: 'LottieFiles AE', a: 'Ana Lima' })
    expect(telegram.notes.join(' ')).not.toMatch(/author/)
    // An author that cannot be squeezed (random text) and would alone take the file past the cap.
    const huge = randomBytes(70_000).toString('base64')
    const over = await exportForPlatform('telegram', { ...lottie(), meta: { g: 'gen', a: huge } })
    expect(over.file, over.notes.join('; ')).toBeDefined()
    expect(JSON.parse(gunzipSync(over.file!.bytes).toString('utf8')).meta).toEqual({ g: 'gen' })
    expect(over.notes).toContain('The author was left out of the file’s metadata to fit 64 KB')
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

  it('makes Discord emoji: a 128x128 GIF that loops forever within 256 KiB and shows every frame of the Lottie', async () => {
    for (const slug of ['waving-wumpus', 'sleepy-wumpus']) {
      const mascot = demoMascots().find((m) => m.slug === slug)!
      const emoji = await exportForPlatform('discord-emoji', mascot.lottie)
      expect(emoji.file, emoji.notes.join('; ')).toBeDefined()
      expect(emoji.notes).toEqual([])
      const bytes = emoji.file!.bytes
      expect(bytes.length).toBeLessThanOrEqual(256 * 1024)
      // Read by the test decoder: canvas, loop, and one play as long as the Lottie's.
      const gif = decodeGif(bytes)
      expect([gif.width, gif.height, gif.loop]).toEqual([128, 128, 0])
      const { fr, ip, op } = mascot.lottie as { fr: number; ip: number; op: number }
      const delaysMs = gif.controls.map((c) => c.delayCs * 10)
      expect(delaysMs.reduce((a, b) => a + b, 0)).toBe(Math.round(((op - ip) / fr) * 1000))
      expect(emoji.file!.facts).toMatchObject({ width: 128, height: 128, frames: gif.frames.length })
      // Every frame of the Lottie rendered at 128 px is what the GIF shows at its time (GIF keeps 1-bit alpha).
      const rendered = await renderLottie(mascot.lottie, { size: 128, fps: fr })
      const shown = shownFrames(delaysMs, fr, rendered.frames.length)
      rendered.frames.forEach((frame, n) =>
        expect(frameError(thresholded(frame), gif.frames[shown[n]!]!).rms, `${slug} frame ${n}`).toBeLessThan(2),
      )
      // libvips reads the same animation.
      const meta = await sharp(bytes, { pages: -1 }).metadata()
      expect([meta.format, meta.width, meta.pageHeight, meta.pages]).toEqual(['gif', 128, 128, gif.frames.length])
    }
  })

  it('steps a heavy animation down to half its frame rate to fit Discord emoji’s 256 KiB, and says so', async () => {
    const emoji = await exportForPlatform('discord-emoji', heavyLottie())
    expect(emoji.file, emoji.notes.join('; ')).toBeDefined()
    expect(emoji.file!.bytes.length).toBeLessThanOrEqual(262_144)
    expect(emoji.notes).toContain('15 fps instead of 30 fps to fit 256 KiB')
    expect(decodeGif(emoji.file!.bytes).controls.map((c) => c.delayCs)).toEqual(expect.arrayContaining([7]))
    expect(checkStickerFile('discord-emoji', emoji.file!.bytes).problems).toEqual([])
  }, 60_000)

  it('makes Telegram emoji: a .tgs that gunzips to a 100x100 Lottie at 60 fps of at most 3 s, within 64 KB', async () => {
    for (const slug of ['waving-wumpus', 'cheering-wumpus', 'sleepy-wumpus']) {
      const mascot = demoMascots().find((m) => m.slug === slug)!
      const emoji = await exportForPlatform('telegram-emoji', mascot.lottie)
      expect(emoji.file, emoji.notes.join('; ')).toBeDefined()
      expect(emoji.notes).toContain('Scaled from 320x320 to a 100x100 canvas')
      const bytes = emoji.file!.bytes
      expect(bytes.length).toBeLessThanOrEqual(64_000)
      // Read without the exporter's code: gunzip, parse, look.
      const json = gunzipSync(bytes).toString('utf8')
      const read = JSON.parse(json) as { w: number; h: number; fr: number; ip: number; op: number; tgs: number }
      expect([read.w, read.h, read.fr, read.tgs]).toEqual([100, 100, 60, 1])
      const seconds = (read.op - read.ip) / read.fr
      expect(seconds).toBeLessThanOrEqual(3)
      const source = mascot.lottie as { fr: number; ip: number; op: number }
      expect(seconds).toBeCloseTo((source.op - source.ip) / source.fr, 6)
      expect(json).not.toMatch(/"ty":\s*"(sr|mm|gs|rp)"/)
      expect(emoji.file!.facts).toMatchObject({ width: 100, height: 100, fps: 60, frames: read.op - read.ip })
    }
  })

  it('leaves Telegram emoji out, with the reason, for what Telegram refuses', async () => {
    const masked = lottie({
      layers: [{ ...(lottie().layers as object[])[0], hasMask: true, masksProperties: [{ mode: 'a', pt: { a: 0, k: {} } }] }],
    })
    expect(await exportForPlatform('telegram-emoji', masked)).toEqual({
      platform: 'telegram-emoji',
      notes: ['Telegram does not allow masks'],
    })
    expect(await exportForPlatform('telegram-emoji', lottie({ op: 120 }))).toEqual({
      platform: 'telegram-emoji',
      notes: ['It runs 4 s; Telegram emoji allows 3 s'],
    })
  })
})
