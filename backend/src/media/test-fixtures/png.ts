/** Builds PNG and APNG files chunk by chunk, with correct CRCs and real deflated pixel data. */
import { crc32, deflateSync } from 'node:zlib'
import { bytes, u16be, u32be, type ByteSource } from './bytes'

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

export function chunk(type: string, data: ByteSource = []): Uint8Array {
  const body = bytes(type, data)
  return bytes(u32be(body.length - 4), body, u32be(crc32(body)))
}

export function buildPng(chunks: ByteSource[]): Uint8Array {
  return bytes(PNG_SIGNATURE, ...chunks)
}

/** 8-bit RGBA by default. */
export function ihdr(width: number, height: number, bitDepth = 8, colourType = 6): Uint8Array {
  return chunk('IHDR', [...u32be(width), ...u32be(height), bitDepth, colourType, 0, 0, 0])
}

/** Deflated RGBA scanlines (filter 0) filled with one grey value. */
export function pixels(width: number, height: number, grey = 0): Uint8Array {
  const raw = new Uint8Array(height * (1 + width * 4))
  for (let y = 0; y < height; y++) raw.fill(grey, y * (1 + width * 4) + 1, (y + 1) * (1 + width * 4))
  return deflateSync(raw)
}

export const iend = () => chunk('IEND')
export const actl = (frames: number, plays = 0) => chunk('acTL', [...u32be(frames), ...u32be(plays)])

export interface FrameControl {
  width: number
  height: number
  x?: number
  y?: number
  delayNum?: number
  delayDen?: number
  dispose?: number
  blend?: number
}

export function fctl(sequence: number, frame: FrameControl): Uint8Array {
  const { width, height, x = 0, y = 0, delayNum = 1, delayDen = 10, dispose = 0, blend = 0 } = frame
  return chunk('fcTL', [
    ...u32be(sequence),
    ...u32be(width),
    ...u32be(height),
    ...u32be(x),
    ...u32be(y),
    ...u16be(delayNum),
    ...u16be(delayDen),
    dispose,
    blend,
  ])
}

export const fdat = (sequence: number, data: Uint8Array) => chunk('fdAT', bytes(u32be(sequence), data))

export function stillPng(width = 4, height = 4): Uint8Array {
  return buildPng([ihdr(width, height), chunk('IDAT', pixels(width, height)), iend()])
}

export interface ApngOptions {
  width?: number
  height?: number
  plays?: number
  /** Frame regions and delays; the first one is the default image unless hiddenDefault. */
  frames?: Partial<FrameControl>[]
  /** The IDAT image is not part of the animation (no fcTL before it). */
  hiddenDefault?: boolean
}

/** The chunks of a valid APNG (without the signature), to be changed by tests and built with buildPng. */
export function apngChunks({ width = 4, height = 4, plays = 0, frames, hiddenDefault = false }: ApngOptions = {}) {
  const controls = (frames ?? [{}, {}, {}]).map((frame) => ({ width, height, ...frame }))
  const chunks: Uint8Array[] = [ihdr(width, height), actl(controls.length, plays)]
  let sequence = 0
  controls.forEach((control, i) => {
    const data = pixels(control.width, control.height, i * 40)
    if (i === 0 && !hiddenDefault) {
      chunks.push(fctl(sequence++, control), chunk('IDAT', data))
      return
    }
    if (i === 0) chunks.push(chunk('IDAT', pixels(width, height)))
    chunks.push(fctl(sequence++, control), fdat(sequence++, data))
  })
  chunks.push(iend())
  return chunks
}

export const buildApng = (options?: ApngOptions) => buildPng(apngChunks(options))
