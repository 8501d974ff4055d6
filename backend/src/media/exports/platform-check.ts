// The judge of platform files: reads the bytes the way a platform would, with readers that share no
// code with the encoders (the upload inspectors for structure, plus small chunk walks for what they
// do not report), and lists every rule of PLATFORM_RULES the file breaks. An export is only offered
// when this finds nothing.
import { gunzipSync } from 'node:zlib'
import sharp from 'sharp'
import { FIRST_FRAME_MIN_COVER, PLATFORM_RULES, type Platform } from '../../../../contract/stickers'
import { type MediaInfo } from '../../../../contract/media'
import { pickMediaFacts, type MediaFacts } from '../../../../contract/media-facts'
import { inspectGif } from '../inspect/inspect-gif'
import { inspectWebp } from '../inspect/inspect-image'
import { inspectLottie } from '../inspect/inspect-lottie'
import { inspectApng } from '../inspect/inspect-png'
import { MediaError } from '../inspect/media-error'

/** What a reader found in a platform file: its media facts, and what the platforms' rules also read. */
export interface StickerFacts extends MediaFacts {
  /** 0 = forever. */
  plays: number
  /** Shortest frame, in milliseconds. */
  shortestFrameMs: number
  /** Telegram: the Lottie's frame rate. */
  fps?: number
}

export interface StickerCheck {
  facts?: StickerFacts
  /** Every broken rule, in words for people; empty when the file is fit for the platform. */
  problems: string[]
  /** The byte cap is one of the broken rules (a smaller file might pass). */
  overCap: boolean
}

/** A file size in decimal kilobytes, as platforms state most caps. */
export const kb = (bytes: number) => `${Math.round(bytes / 1000)} KB`
/** Seconds with at most two decimals: 4 s, 1.5 s, 3.02 s. */
export const seconds = (ms: number) => `${+(ms / 1000).toFixed(2)} s`

/** Reads a platform file and checks it against that platform's rules. */
export function checkStickerFile(platform: Platform, bytes: Uint8Array): StickerCheck {
  const rules = PLATFORM_RULES[platform]
  let read: { facts: StickerFacts; problems: string[] }
  try {
    read = readFacts(platform, bytes)
  } catch (error) {
    const reason = error instanceof MediaError ? `${error.message}${reasonOf(error)}` : (error as Error).message
    return { problems: [`The file cannot be read as ${rules.kind}: ${reason}`], overCap: false }
  }
  const { facts } = read
  const problems = [...read.problems]
  if (facts.contentType !== rules.contentType) problems.push(`It is ${facts.contentType}, not ${rules.contentType}`)
  const overCap = facts.bytes > rules.maxBytes
  if (overCap) problems.push(`${kb(facts.bytes)} is over ${rules.label}'s limit of ${rules.maxBytesLabel}`)
  const { exact, maxWidth, maxHeight, square, minLongSide } = rules.canvas
  const size = `${facts.width}x${facts.height}`
  if (exact !== undefined && (facts.width !== exact || facts.height !== exact))
    problems.push(`${size} is not the ${exact}x${exact} ${rules.label} asks for`)
  if (maxWidth !== undefined && maxHeight !== undefined && (facts.width > maxWidth || facts.height > maxHeight))
    problems.push(`${size} does not fit within ${maxWidth}x${maxHeight}`)
  if (square && facts.width !== facts.height) problems.push(`${size} is not square`)
  if (minLongSide !== undefined && Math.max(facts.width, facts.height) < minLongSide)
    problems.push(`${size} has no side of at least ${minLongSide} pixels`)
  if (rules.minFrames !== undefined && facts.frames < rules.minFrames)
    problems.push(`${facts.frames} frames are fewer than ${rules.minFrames}`)
  if (rules.maxFrames !== undefined && facts.frames > rules.maxFrames)
    problems.push(`${facts.frames} frames are more than ${rules.maxFrames}`)
  if (rules.minFrameMs !== undefined && facts.shortestFrameMs < rules.minFrameMs)
    problems.push(`A frame lasts ${facts.shortestFrameMs} ms, under ${rules.minFrameMs} ms`)
  if (rules.fps !== undefined && facts.fps !== rules.fps) problems.push(`It runs at ${facts.fps} fps, not ${rules.fps}`)
  if (rules.colour === 'truecolour' && rules.kind === 'APNG' && bytes[25] === PNG_INDEXED)
    problems.push(`It has a palette; ${rules.label} on iPhone plays only a truecolour APNG`)
  if (rules.plays === 'forever' && facts.plays !== 0) problems.push('It does not loop forever')
  if (typeof rules.plays === 'object') {
    if (facts.plays === 0 || facts.plays < rules.plays.min || facts.plays > rules.plays.max) {
      problems.push(
        `It plays ${facts.plays === 0 ? 'forever' : `${facts.plays} times`}; ${rules.label} allows ${rules.plays.min} to ${rules.plays.max}`,
      )
    } else if (facts.durationMs * facts.plays > rules.maxDurationMs) {
      problems.push(`${facts.plays} plays of ${seconds(facts.durationMs)} run over ${seconds(rules.maxDurationMs)}`)
    }
  } else if (facts.durationMs > rules.maxDurationMs) {
    problems.push(`It runs ${seconds(facts.durationMs)}; ${rules.label} allows ${seconds(rules.maxDurationMs)}`)
  }
  return { facts, problems, overCap }
}

/**
 * checkStickerFile, and where the app shows the first frame as the sticker's still (PLATFORM_RULES' firstFrame),
 * every frame decoded by libvips to see that the first shows the whole sticker. Run on every file before it is offered.
 */
export async function checkStickerFileFully(platform: Platform, bytes: Uint8Array): Promise<StickerCheck> {
  const check = checkStickerFile(platform, bytes)
  if (check.problems.length > 0 || PLATFORM_RULES[platform].firstFrame !== 'whole') return check
  const { data, info } = await sharp(bytes, { pages: -1 }).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  const frameBytes = info.width * (info.pageHeight ?? info.height) * 4
  const frames = Array.from({ length: Math.round(data.length / frameBytes) }, (_, i) => data.subarray(i * frameBytes, (i + 1) * frameBytes))
  const problem = firstFrameProblem(opaqueCover(frames))
  return problem ? { ...check, problems: [problem] } : check
}

/** Opaque pixels (alpha at least half) of each straight-alpha RGBA frame. */
export function opaqueCover(frames: readonly Uint8Array[]): number[] {
  return frames.map((frame) => {
    let count = 0
    for (let i = 3; i < frame.length; i += 4) if (frame[i]! >= 128) count++
    return count
  })
}

/** The first-frame rule: the first frame covers at least FIRST_FRAME_MIN_COVER of the fullest frame's opaque pixels. */
export function firstFrameProblem(covers: readonly number[]): string | undefined {
  const most = Math.max(0, ...covers)
  const first = covers[0] ?? 0
  if (most === 0 || first >= most * FIRST_FRAME_MIN_COVER) return undefined
  return `Its first frame shows ${Math.round((first / most) * 100)}% of the sticker (the still the app shows where animation is off); at least ${Math.round(FIRST_FRAME_MIN_COVER * 100)}% is needed`
}

/** The colour type byte of a PNG's IHDR (at 25: signature, chunk length and type, width, height, depth) for palette images. */
const PNG_INDEXED = 3

function reasonOf(error: MediaError): string {
  const reason = (error.details as { reason?: unknown } | undefined)?.reason
  return typeof reason === 'string' ? ` (${reason})` : ''
}

function readFacts(platform: Platform, bytes: Uint8Array): { facts: StickerFacts; problems: string[] } {
  switch (PLATFORM_RULES[platform].kind) {
    case 'APNG':
      return { facts: apngFacts(bytes), problems: [] }
    case 'GIF':
      return { facts: gifFacts(bytes), problems: [] }
    case 'animated WebP':
      return webpFacts(bytes)
    case 'TGS':
      return tgsFacts(bytes)
  }
}

function baseFacts(info: MediaInfo): StickerFacts {
  return {
    ...pickMediaFacts(info),
    plays: info.loop,
    shortestFrameMs: info.frames > 0 ? info.durationMs / info.frames : 0,
  }
}

const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0
const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16)

/** inspectApng checks the structure (CRCs, sequence, frame count); the fcTL walk gives each delay. */
function apngFacts(bytes: Uint8Array): StickerFacts {
  const facts = baseFacts(inspectApng(bytes))
  let shortest = Infinity
  for (let pos = 8; pos + 8 <= bytes.length; pos += 12 + u32be(bytes, pos)) {
    const type = String.fromCharCode(...bytes.subarray(pos + 4, pos + 8))
    if (type !== 'fcTL') continue
    const den = u16be(bytes, pos + 8 + 22) || 100
    shortest = Math.min(shortest, (u16be(bytes, pos + 8 + 20) * 1000) / den)
  }
  return { ...facts, shortestFrameMs: shortest }
}

function gifFacts(bytes: Uint8Array): StickerFacts {
  return baseFacts(inspectGif(bytes))
}

/** inspectWebp checks the RIFF structure; the ANMF walk gives each frame's duration and placement. */
function webpFacts(bytes: Uint8Array): { facts: StickerFacts; problems: string[] } {
  const info = inspectWebp(bytes)
  const problems: string[] = []
  const frames: Array<{ x: number; y: number; w: number; h: number; ms: number }> = []
  for (let pos = 12; pos + 8 <= bytes.length;) {
    const fourcc = String.fromCharCode(...bytes.subarray(pos, pos + 4))
    const size = u24le(bytes, pos + 4) + bytes[pos + 7]! * 0x1000000
    if (fourcc === 'ANMF') {
      const at = pos + 8
      frames.push({
        x: u24le(bytes, at) * 2,
        y: u24le(bytes, at + 3) * 2,
        w: u24le(bytes, at + 6) + 1,
        h: u24le(bytes, at + 9) + 1,
        ms: u24le(bytes, at + 12),
      })
    }
    pos += 8 + size + (size & 1)
  }
  if (frames.length === 0) problems.push('It is a still WebP, not an animated one')
  const first = frames[0]
  if (first && (first.x !== 0 || first.y !== 0 || first.w !== info.width || first.h !== info.height)) {
    problems.push('Its first frame does not cover the whole canvas')
  }
  const facts = { ...baseFacts(info), shortestFrameMs: Math.min(...frames.map((f) => f.ms)) }
  return { facts, problems }
}

/** Layer types Telegram refuses, and shape types. */
const FORBIDDEN_LAYERS: Record<number, string> = { 1: 'solid layers', 2: 'image layers', 5: 'text layers' }
const FORBIDDEN_SHAPES: Record<string, string> = { mm: 'merge paths', sr: 'star shapes', gs: 'gradient strokes', rp: 'repeaters' }

/** Gunzips (capped), inspects the Lottie, and walks it for what Telegram refuses. */
function tgsFacts(bytes: Uint8Array): { facts: StickerFacts; problems: string[] } {
  let json: Uint8Array
  try {
    json = gunzipSync(bytes, { maxOutputLength: 16 * 1024 * 1024 })
  } catch (error) {
    throw new Error(`it is not gzip data (${(error as Error).message})`, { cause: error })
  }
  const info = inspectLottie(json)
  const lottie = JSON.parse(new TextDecoder().decode(json)) as Record<string, unknown>
  const found = new Set<string>()
  if (lottie.ddd === 1) found.add('3D layers')
  const stack: unknown[] = [lottie]
  while (stack.length > 0) {
    const node = stack.pop()
    if (Array.isArray(node)) {
      for (const item of node) if (typeof item === 'object' && item !== null) stack.push(item)
      continue
    }
    if (typeof node !== 'object' || node === null) continue
    const o = node as Record<string, unknown>
    if (typeof o.x === 'string' && ('a' in o || 'k' in o)) found.add('expressions')
    const shape = typeof o.ty === 'string' ? FORBIDDEN_SHAPES[o.ty] : undefined
    if (shape) found.add(shape)
    if (typeof o.ty === 'number' && 'ks' in o) {
      // A layer.
      const layer = FORBIDDEN_LAYERS[o.ty]
      if (layer) found.add(layer)
      if (o.hasMask === true || (Array.isArray(o.masksProperties) && o.masksProperties.length > 0)) found.add('masks')
      if (Array.isArray(o.ef) && o.ef.length > 0) found.add('layer effects')
      if (o.ddd === 1) found.add('3D layers')
      if (o.ao === 1) found.add('auto-oriented layers')
      if (o.tm !== undefined) found.add('time remapping')
      if (typeof o.sr === 'number' && o.sr !== 1) found.add('time stretching')
    }
    if (typeof o.p === 'string' && typeof o.id === 'string' && ('w' in o || 'u' in o)) found.add('images')
    for (const value of Object.values(o)) if (typeof value === 'object' && value !== null) stack.push(value)
  }
  const fps = lottie.fr as number
  const frames = Math.round((lottie.op as number) - (lottie.ip as number))
  const facts: StickerFacts = {
    contentType: 'application/x-tgsticker',
    bytes: bytes.length,
    width: info.width,
    height: info.height,
    frames,
    durationMs: Math.round((frames / fps) * 1000),
    plays: 0,
    shortestFrameMs: 1000 / fps,
    fps,
  }
  const problems = [...found].sort().map((feature) => `Telegram does not allow ${feature}`)
  return { facts, problems }
}
