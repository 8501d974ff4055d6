// A sticker file a person picks to submit, read in the browser for its live preview: a Lottie JSON, a Telegram
// `.tgs` (gzipped Lottie JSON) or a dotLottie `.lottie` (a ZIP holding `animations/<id>.json`). Told apart by
// their first bytes, as the server does; the server judges the file again, with the same caps.
import { MAX_LOTTIE_BYTES } from '../../contract/limits'
import type { LottieJson } from './lottie-json'

export type StickerFileKind = 'lottie' | 'tgs' | 'dotlottie'

export const STICKER_FILE_ACCEPT = '.json,.tgs,.lottie,application/json,application/gzip,application/zip'

export class StickerFileError extends Error {}

const GZIP = [0x1f, 0x8b]
const ZIP = [0x50, 0x4b, 0x03, 0x04]
const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((byte, index) => bytes[index] === byte)

export function stickerFileKind(bytes: Uint8Array): StickerFileKind {
  if (startsWith(bytes, GZIP)) return 'tgs'
  if (startsWith(bytes, ZIP)) return 'dotlottie'
  return 'lottie'
}

/** The Lottie inside a picked file, or a StickerFileError that says what is wrong in words. */
export async function readStickerFile(file: Blob): Promise<{ kind: StickerFileKind; lottie: LottieJson }> {
  const bytes = new Uint8Array(await file.arrayBuffer())
  const kind = stickerFileKind(bytes)
  const json = kind === 'tgs' ? await inflated(bytes, 'gzip') : kind === 'dotlottie' ? await dotLottieAnimation(bytes) : bytes
  if (json.byteLength > MAX_LOTTIE_BYTES) throw new StickerFileError(`The animation is larger than ${MAX_LOTTIE_BYTES / 1024 / 1024} MB`)
  let parsed: unknown
  try {
    parsed = JSON.parse(new TextDecoder().decode(json))
  } catch {
    throw new StickerFileError('This is not a Lottie JSON, a .tgs or a .lottie file')
  }
  if (!Array.isArray((parsed as { layers?: unknown } | null)?.layers)) throw new StickerFileError('This file holds no Lottie animation')
  return { kind, lottie: parsed as LottieJson }
}

/** Decompresses, stopping past the Lottie cap (a small file may unpack to gigabytes). */
async function inflated(bytes: Uint8Array, format: 'gzip' | 'deflate-raw'): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream(format)).getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > MAX_LOTTIE_BYTES) throw new StickerFileError(`The animation is larger than ${MAX_LOTTIE_BYTES / 1024 / 1024} MB`)
      chunks.push(value)
    }
  } catch (error) {
    if (error instanceof StickerFileError) throw error
    throw new StickerFileError('This file is damaged: it could not be unpacked')
  } finally {
    void reader.cancel().catch(() => {})
  }
  const out = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.byteLength
  }
  return out
}

/** The first `animations/*.json` of a dotLottie, read through the ZIP's central directory. */
async function dotLottieAnimation(bytes: Uint8Array): Promise<Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const damaged = () => new StickerFileError('This .lottie file is damaged: it is not a whole ZIP')
  // The end of central directory record: its signature, searched back from the end (a comment may follow it).
  let end = -1
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === 0x06054b50) {
      end = at
      break
    }
  }
  if (end < 0) throw damaged()
  const entries = view.getUint16(end + 10, true)
  let at = view.getUint32(end + 16, true)
  for (let index = 0; index < entries; index++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) throw damaged()
    const method = view.getUint16(at + 10, true)
    const compressedSize = view.getUint32(at + 20, true)
    const nameLength = view.getUint16(at + 28, true)
    const extraLength = view.getUint16(at + 30, true)
    const commentLength = view.getUint16(at + 32, true)
    const localHeader = view.getUint32(at + 42, true)
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength))
    at += 46 + nameLength + extraLength + commentLength
    if (!/^animations\/[^/]+\.json$/.test(name)) continue
    if (localHeader + 30 > bytes.length || view.getUint32(localHeader, true) !== 0x04034b50) throw damaged()
    const dataStart = localHeader + 30 + view.getUint16(localHeader + 26, true) + view.getUint16(localHeader + 28, true)
    const data = bytes.subarray(dataStart, dataStart + compressedSize)
    if (data.length < compressedSize) throw damaged()
    if (method === 0) return data
    if (method === 8) return inflated(data, 'deflate-raw')
    throw new StickerFileError('This .lottie file is packed in a way that is not supported (use deflate or store)')
  }
  throw new StickerFileError('This .lottie file holds no animation (no animations/*.json)')
}
