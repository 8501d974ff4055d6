// One file per chat platform, rendered from the Lottie at exactly the size and frame rate the
// platform wants. When a file misses a size cap, the exporter steps down (fewer colours, then fewer
// frames per second, then for Signal a smaller square; lossy quality for WebP) until it fits, and
// says what it gave up. Every file is judged by checkStickerFile before it is offered; a platform
// the animation cannot fit is absent, with the reason.
import { FIRST_FRAME_MIN_COVER, PLATFORM_RULES, type Platform } from '../../../../contract/stickers'
import { encodeApng } from '../encode/encode-apng'
import { encodeGif } from '../encode/encode-gif'
import { encodeAnimatedWebp } from '../encode/encode-webp'
import type { FrameSequence } from '../encode/frames'
import type { MadeFile } from './made-file'
import { checkStickerFile, checkStickerFileFully, kb, opaqueCover, seconds, type StickerFacts } from './platform-check'
import { fileKey, FrameSource } from '../render/frame-source'
import { mediaStats } from '../render/render-stats'
import { DEFAULT_MAX_FPS, lottieHeader } from '../render/render-lottie'
import { tgsBytes, toTelegramLottie } from './telegram-sticker'
import { lottieAuthor, withoutAuthor } from '../encode/lottie-meta'

export interface PlatformExport {
  platform: Platform
  /** The file, when one fits the platform's rules. */
  file?: MadeFile<StickerFacts>
  /** What the file gave up to fit, or why there is none. */
  notes: string[]
}

/** One try at a platform file. `expected` is its size relative to the first attempt's, to skip hopeless ones. */
interface Attempt {
  size: number
  fps: number
  /** Palette quality, or lossy quality for WebP in 'lossy' mode. */
  quality: number
  mode?: 'palette' | 'lossy'
  expected: number
  level?: number
}

interface Encoded {
  bytes: Uint8Array
  /** Palette entries, when the format has a palette. */
  colours?: number | null
}

const fpsText = (fps: number) => `${Math.round(fps * 10) / 10} fps`

type Render = (size: number, fps: number) => Promise<FrameSequence>

/** What earlier exports of the same animation tell about this one's sizes. */
export interface ExportHints {
  /** Bytes of the Discord APNG when it needed no step-down (320 px, full rate, default palette). */
  discordBytes?: number
  /** Bytes of Discord's first try (320 px, full rate, default palette), whether it fit or not; set by the Discord export. */
  discordFirstBytes?: number
}

/** The export for one platform (never throws for a Lottie that renders). */
export async function exportForPlatform(
  platform: Platform,
  lottie: unknown,
  renders = new FrameSource(lottie),
  hints: ExportHints = {},
): Promise<PlatformExport> {
  const header = lottieHeader(lottie)
  const rules = PLATFORM_RULES[platform]
  const durationMs = ((header.op - header.ip) / header.fr) * 1000
  const sourceFps = Math.min(header.fr, DEFAULT_MAX_FPS)
  const square = header.w === header.h ? [] : ['Centred on a square canvas']

  if (platform === 'telegram' || platform === 'telegram-emoji') return telegramExport(platform, lottie)
  if (platform !== 'line' && platform !== 'signal' && durationMs > rules.maxDurationMs) {
    return absent(platform, [`The animation runs ${seconds(durationMs)}; ${rules.label} allows ${seconds(rules.maxDurationMs)}`])
  }

  switch (platform) {
    case 'discord': {
      const attempts = colourLadder(320, sourceFps, [1, 0.5])
      const first = (bytes: number) => (hints.discordFirstBytes = bytes)
      return ladder(platform, attempts, { render: renders.square, files: renders }, paletteApng, square, undefined, first)
    }
    case 'signal':
      return signalExport(durationMs, sourceFps, renders, hints, square)
    case 'whatsapp': {
      // Lossless over a palette first (sharp and exact for flat art), lossy after, fewer frames last.
      const steps = [
        { mode: 'palette' as const, quality: 80, expected: 1 },
        { mode: 'palette' as const, quality: 60, expected: 0.82 },
        { mode: 'lossy' as const, quality: 60, expected: 0.85 },
        { mode: 'lossy' as const, quality: 40, expected: 0.75 },
      ]
      const attempts = [1, 0.5, 1 / 3].flatMap((share) =>
        steps.map((step) => ({ size: 512, fps: sourceFps * share, ...step, expected: step.expected * (share === 1 ? 1 : share * 1.1) })),
      )
      const encode = async (seq: FrameSequence, a: Attempt) =>
        encodeAnimatedWebp(seq, { mode: a.mode, quality: a.quality, fullFirstFrame: true })
      // Discord's first APNG predicts this one: a palette WebP at 512 px came to 1.8 times its bytes
      // (a remix at half speed: 1460 KB beside 820 KB), so a hopeless first try at full rate is skipped.
      const estimate = hints.discordFirstBytes === undefined ? undefined : hints.discordFirstBytes * 1.8
      const notes = [...square]
      return ladder(
        platform,
        attempts,
        { render: wholeFirst(renders.square, notes, rules.label), files: renders },
        { format: 'webp full-first-frame', encode },
        notes,
        estimate,
      )
    }
    case 'slack': {
      // At most 50 frames: long animations play at a lower rate.
      const fps = Math.min(sourceFps, Math.floor((50 * 1000) / durationMs))
      if (fps < 1) return absent(platform, [`The animation runs ${seconds(durationMs)}: 50 frames cannot show it`])
      const notes = fps < sourceFps ? [`${fpsText(fps)} so it fits in 50 frames`, ...square] : square
      return ladder(platform, colourLadder(128, fps, [1, 0.5]), { render: renders.square, files: renders }, gif, notes)
    }
    case 'discord-emoji':
      return ladder(platform, colourLadder(128, sourceFps, [1, 0.5]), { render: renders.square, files: renders }, gif, square)
    case 'line':
      return lineExport(lottie, header, durationMs, renders)
  }
}

const gif = { format: 'gif', encode: (seq: FrameSequence, a: Attempt) => encodeGif(seq, { quality: a.quality }) }
/** The APNG over one palette; the original APNG is this file when its palette fits (see media-worker). */
export const PALETTE_APNG = 'apng palette'
const paletteApng = {
  format: PALETTE_APNG,
  encode: (seq: FrameSequence, a: Attempt) => encodeApng(seq, { palette: 'always', quality: a.quality, level: a.level }),
}

/** Signal plays a longer animation at most this many times as fast; what still runs over its 3 s is cut. */
const SIGNAL_MAX_SPEED_UP = 2

/**
 * Signal: a truecolour APNG (PLATFORM_RULES.signal) of at most 3 s and 300 KiB. A longer animation plays
 * faster (up to twice), then is cut; to fit the bytes, fewer colours, then a smaller square (stickers show
 * at about 256 px in the chat) before a jerkier animation.
 */
async function signalExport(
  durationMs: number,
  sourceFps: number,
  renders: FrameSource,
  hints: ExportHints,
  baseNotes: string[],
): Promise<PlatformExport> {
  const rules = PLATFORM_RULES.signal
  const limit = rules.maxDurationMs
  const speed = Math.min(SIGNAL_MAX_SPEED_UP, Math.max(1, durationMs / limit))
  const notes = [...baseNotes]
  if (speed > 1) {
    notes.push(
      `Plays ${+speed.toFixed(2)} times as fast (${seconds(durationMs)} in ${seconds(durationMs / speed)}) to fit ${rules.label}’s ${seconds(limit)}`,
    )
  }
  if (durationMs / speed > limit)
    notes.push(`Cut to its first ${seconds(limit)} (of ${seconds(durationMs / speed)}) to fit ${rules.label}’s ${seconds(limit)}`)
  const timed = new Map<string, Promise<FrameSequence>>()
  const render: Render = (size, fps) => {
    if (speed === 1) return renders.square(size, fps)
    const key = `${size}@${fps}`
    let seq = timed.get(key)
    if (!seq) {
      // Drawn at a lower rate over the whole animation, shown at `fps`: the same frames, played faster.
      seq = renders
        .square(size, fps / speed)
        .then((drawn) => ({ ...drawn, fps, frames: drawn.frames.slice(0, Math.floor((limit / 1000) * fps + 1e-9)) }))
      timed.set(key, seq)
    }
    return seq
  }
  const attempts: Attempt[] = [
    ...colourLadder(512, sourceFps, [1]).slice(0, 4),
    ...[384, 320].flatMap((size) =>
      colourLadder(size, sourceFps, [1])
        .slice(2, 5)
        .map((a) => ({ ...a, expected: a.expected * (size / 512) ** 1.2 })),
    ),
    // 20 fps before 15: a smoother animation for a few more bytes.
    ...colourLadder(320, sourceFps, [2 / 3, 1 / 2, 1 / 3])
      .slice(3)
      .map((a) => ({ ...a, expected: a.expected * 0.55 })),
  ]
  // The palette APNG at 320 px (Discord's first try, whether it fit or not) predicts this one: 2.56 times the
  // pixels, and truecolour over the same colours came to 1.4 times the indexed bytes (bench:media's demo set).
  const discord = hints.discordBytes ?? hints.discordFirstBytes
  const estimate = discord === undefined ? undefined : discord * 1.4 * (512 / 320) ** 2
  return ladder('signal', attempts, { render, files: renders }, truecolourApng, notes, estimate)
}

/** The palette's colours stored as truecolour with alpha, for clients that show an indexed APNG as a still. */
const truecolourApng = {
  format: 'apng rgba',
  encode: (seq: FrameSequence, a: Attempt) => encodeApng(seq, { palette: 'rgba', quality: a.quality, level: a.level }),
}

/**
 * For an app that shows the first frame as the sticker's still (WhatsApp where animation is off): frames that
 * start nearly empty (a fade-in, a sticker growing from nothing) start instead at the first frame that covers
 * FIRST_FRAME_MIN_COVER of the fullest one; a looping sticker plays the same loop, begun later. The first
 * sequence drawn decides the note (`notes` is the ladder's own list, so every file made from it says so).
 */
function wholeFirst(render: Render, notes: string[], label: string): Render {
  const turned = new Map<FrameSequence, FrameSequence>()
  let noted = false
  return async (size, fps) => {
    const seq = await render(size, fps)
    let out = turned.get(seq)
    if (!out) {
      const covers = opaqueCover(seq.frames)
      const most = Math.max(0, ...covers)
      const start = most === 0 ? 0 : covers.findIndex((cover) => cover >= most * FIRST_FRAME_MIN_COVER)
      out = start <= 0 ? seq : { ...seq, frames: [...seq.frames.slice(start), ...seq.frames.slice(0, start)] }
      if (!noted) {
        noted = true
        if (start > 0) {
          notes.push(
            `Starts ${seconds((start * 1000) / seq.fps)} in, at its first frame that shows the whole sticker (${label} shows the first frame where animation is off); the loop is the same`,
          )
        }
      }
      turned.set(seq, out)
    }
    return out
  }
}

/** Palette qualities 80 to 20 at each share of the frame rate; colours go first, frames after. */
function colourLadder(size: number, fps: number, shares: number[]): Attempt[] {
  const qualities = [
    { quality: 80, level: 7, expected: 1 },
    { quality: 80, level: 8, expected: 0.94 },
    { quality: 60, level: 8, expected: 0.85 },
    { quality: 40, level: 8, expected: 0.75 },
    { quality: 20, level: 8, expected: 0.65 },
  ]
  return shares.flatMap((share, i) =>
    qualities
      .slice(i === 0 ? 0 : 2)
      .map((q) => ({ size, fps: fps * share, quality: q.quality, level: q.level, expected: q.expected * (share === 1 ? 1 : share * 1.1) })),
  )
}

function absent(platform: Platform, notes: string[]): PlatformExport {
  return { platform, notes }
}

/**
 * Tries the attempts in order until a file passes the platform check. An attempt whose expected size
 * (from the first attempt's size, measured or estimated) is far over the cap is skipped. Failing for
 * a reason other than size stops.
 */
async function ladder(
  platform: Platform,
  attempts: Attempt[],
  { render, files }: { render: Render; files: FrameSource },
  { format, encode }: { format: string; encode: (seq: FrameSequence, attempt: Attempt) => Promise<Encoded> },
  baseNotes: string[] = [],
  estimate?: number,
  first?: (bytes: number) => void,
): Promise<PlatformExport> {
  const rules = PLATFORM_RULES[platform]
  const ideal = attempts[0]!
  let reference = estimate
  let idealColours: number | null | undefined
  let smallest = Infinity
  for (const [i, attempt] of attempts.entries()) {
    const last = i === attempts.length - 1
    if (reference !== undefined && !last && reference * attempt.expected > rules.maxBytes * 1.2) continue
    const started = performance.now()
    const seq = await render(attempt.size, attempt.fps)
    // Two platforms that want the same file (Slack and Discord emoji at the same rate) get it made once.
    const encoded = await files.once(seq, fileKey(format, attempt), () => encode(seq, attempt))
    const check = await checkStickerFileFully(platform, encoded.bytes)
    mediaStats.steps.push({
      target: platform,
      step: `${attempt.size}px ${fpsText(attempt.fps)} ${attempt.mode ?? ''} q${attempt.quality}${attempt.level ? ` z${attempt.level}` : ''}`,
      bytes: encoded.bytes.length,
      ms: performance.now() - started,
      fits: check.problems.length === 0,
    })
    if (attempt === ideal) {
      idealColours = encoded.colours
      first?.(encoded.bytes.length)
    }
    // The latest file is the best guide to the next steps' sizes.
    reference = encoded.bytes.length / attempt.expected
    smallest = Math.min(smallest, encoded.bytes.length)
    if (check.problems.length === 0 && check.facts) {
      const notes = [...baseNotes, ...gaveUp({ attempt: ideal, colours: idealColours }, attempt, encoded, rules.maxBytesLabel)]
      return { platform, file: { bytes: encoded.bytes, facts: check.facts }, notes }
    }
    if (!check.overCap || check.problems.length > 1) return absent(platform, check.problems)
  }
  const end = attempts.at(-1)!
  return absent(platform, [
    `Even at ${end.size}x${end.size}, ${fpsText(end.fps)} and the lowest quality tried, the smallest file was ${kb(smallest)}; ${rules.label} allows ${rules.maxBytesLabel}`,
  ])
}

/** What a file gave up compared with the first try. */
function gaveUp(first: { attempt: Attempt; colours?: number | null }, attempt: Attempt, encoded: Encoded, cap: string): string[] {
  const notes: string[] = []
  const fit = `to fit ${cap}`
  if (attempt.size !== first.attempt.size)
    notes.push(`${attempt.size}x${attempt.size} instead of ${first.attempt.size}x${first.attempt.size} ${fit}`)
  if (attempt.fps !== first.attempt.fps) notes.push(`${fpsText(attempt.fps)} instead of ${fpsText(first.attempt.fps)} ${fit}`)
  if (attempt.mode === 'lossy') notes.push(`Lossy compression (quality ${attempt.quality}) ${fit}`)
  else if (attempt.quality !== first.attempt.quality) {
    if (encoded.colours && first.colours && encoded.colours < first.colours)
      notes.push(`${encoded.colours} colours instead of ${first.colours} ${fit}`)
    else notes.push(`Fewer colours ${fit}`)
  }
  return notes
}

/**
 * LINE: within 320x270 with one side at least 270, 5 to 20 frames, 1 to 4 plays and at most 4 s in
 * all. The frame count is spread over one play; plays are as many as fit in 4 s.
 */
async function lineExport(
  lottie: unknown,
  header: { w: number; h: number },
  durationMs: number,
  renders: FrameSource,
): Promise<PlatformExport> {
  const rules = PLATFORM_RULES.line
  if (durationMs > rules.maxDurationMs) {
    return absent('line', [`The animation runs ${seconds(durationMs)}; LINE allows ${seconds(rules.maxDurationMs)} in all`])
  }
  const plays = Math.max(1, Math.min(4, Math.floor(rules.maxDurationMs / durationMs + 1e-9)))
  const size = Math.round(Math.max(header.w, header.h) * Math.min(320 / header.w, 270 / header.h))
  const sourceFps = Math.min(lottieHeader(lottie).fr, DEFAULT_MAX_FPS)
  const seconds1 = durationMs / 1000
  const frameCounts = [20, 15, 10, 5].filter((n, i) => i === 0 || n < Math.round(seconds1 * sourceFps))
  const attempts: Attempt[] = frameCounts.flatMap((count, i) => {
    const frames = Math.max(5, Math.min(count, Math.round(seconds1 * sourceFps)))
    return [80, 60, 40, 20]
      .slice(i === 0 ? 0 : 2)
      .map((quality) => ({ size, fps: frames / seconds1, quality, level: 8, expected: (frames / 20) * (0.6 + quality / 200) }))
  })
  const notes = [`Plays ${plays === 1 ? 'once' : `${plays} times`} (${seconds(durationMs * plays)} in all)`]
  // LINE's canvas need not be square.
  const result = await ladder(
    'line',
    attempts,
    // LINE shows the first frame as the sticker's still (its guidelines): it shows the whole sticker too.
    { render: wholeFirst(renders.asIs, notes, rules.label), files: renders },
    {
      format: `apng palette ${plays} plays, repeats kept`,
      encode: (seq, a) => encodeApng(seq, { palette: 'always', quality: a.quality, level: a.level, plays, mergeRepeats: false }),
    },
    notes,
  )
  if (result.file)
    result.notes.splice(
      1,
      0,
      `${result.file.facts.frames} frames at ${fpsText(result.file.facts.frames / seconds1)}, as LINE allows 5 to 20`,
    )
  return result
}

/**
 * Telegram stickers and custom emoji: the Lottie itself, rewritten for Telegram's rules on the
 * platform's canvas and gzipped; names dropped if it is too big.
 */
function telegramExport(platform: 'telegram' | 'telegram-emoji', lottie: unknown): PlatformExport {
  const rules = PLATFORM_RULES[platform]
  let converted
  try {
    converted = toTelegramLottie(lottie, rules.canvas.exact)
  } catch (error) {
    return absent(platform, [(error as Error).message])
  }
  let bytes = tgsBytes(converted.lottie)
  const notes = [...converted.notes]
  if (bytes.length > rules.maxBytes) {
    bytes = tgsBytes(withoutNames(converted.lottie))
    notes.push(`Layer and shape names were left out to fit ${rules.maxBytesLabel}`)
  }
  // The author (meta.a, media/encode/lottie-meta.ts) goes last, and only when it alone is in the way.
  if (bytes.length > rules.maxBytes && lottieAuthor(converted.lottie) !== undefined) {
    const anonymous = tgsBytes(withoutAuthor(withoutNames(converted.lottie)))
    if (anonymous.length <= rules.maxBytes) {
      bytes = anonymous
      notes.push(`The author was left out of the file’s metadata to fit ${rules.maxBytesLabel}`)
    }
  }
  const check = checkStickerFile(platform, bytes)
  if (check.problems.length > 0 || !check.facts) return absent(platform, check.problems)
  return { platform, file: { bytes, facts: check.facts }, notes }
}

function withoutNames(lottie: object): object {
  return JSON.parse(JSON.stringify(lottie, (key, value: unknown) => (key === 'nm' || key === 'mn' ? undefined : value))) as object
}
