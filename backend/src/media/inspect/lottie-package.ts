/**
 * The Lottie inside what people send as a sticker, judged by its bytes (never its name): a Lottie JSON as
 * it is, a Telegram `.tgs` (gzipped Lottie JSON: gzip's magic 1f 8b), or a dotLottie `.lottie` (a ZIP:
 * "PK\x03\x04", with manifest.json naming its animations, stored as animations/<id>.json, or a/<id>.json
 * in dotLottie 2). Decompression stops at `maxBytes` of output, so a small bomb never becomes a large buffer;
 * the Lottie it finds is then judged by the Lottie inspector like any other.
 */
import { gunzip } from 'node:zlib'
import { promisify } from 'node:util'
import yauzl from 'yauzl'
import { MediaError } from './media-error'

export type LottiePackage = 'json' | 'tgs' | 'dotlottie'

/** The Lottie unpacked is larger than allowed. */
export class UnpackedTooLargeError extends Error {
  override readonly name = 'UnpackedTooLargeError'
  constructor(readonly maxBytes: number) {
    super(`The unpacked Lottie is larger than ${maxBytes} bytes`)
  }
}

/** The most entries a dotLottie may list: ours need a manifest and one animation; themes and images are few. */
const MAX_ZIP_ENTRIES = 200

const gunzipAsync = promisify(gunzip)

export function packageOf(bytes: Uint8Array): LottiePackage {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return 'tgs'
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return 'dotlottie'
  return 'json'
}

/** The Lottie JSON's bytes inside `bytes`, at most `maxBytes`; MediaError when the package is broken. */
export async function unpackLottie(bytes: Uint8Array, maxBytes: number): Promise<{ kind: LottiePackage; lottie: Uint8Array }> {
  const kind = packageOf(bytes)
  if (kind === 'json') return { kind, lottie: bytes }
  if (kind === 'tgs') return { kind, lottie: await gunzipped(bytes, maxBytes) }
  return { kind, lottie: await dotLottieAnimation(bytes, maxBytes) }
}

async function gunzipped(bytes: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  try {
    return new Uint8Array(await gunzipAsync(bytes, { maxOutputLength: maxBytes }))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new UnpackedTooLargeError(maxBytes)
    throw new MediaError('BAD_STRUCTURE', { reason: 'the .tgs file is not valid gzip' })
  }
}

const broken = (reason: string) => new MediaError('BAD_STRUCTURE', { reason })

/** The first animation a dotLottie's manifest names (or its only one), read within the limits. */
async function dotLottieAnimation(bytes: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  const zip = await openZip(bytes)
  try {
    const entries = await zipEntries(zip)
    const manifestEntry = entries.get('manifest.json')
    if (!manifestEntry) throw broken('the .lottie file has no manifest.json')
    const manifest = parseManifest(await readEntry(zip, manifestEntry, maxBytes))
    const animations = [...entries.keys()].filter((name) => /^(animations|a)\/[^/]+\.json$/.test(name))
    const wanted = manifest.find((id) => animations.some((name) => name.endsWith(`/${id}.json`)))
    const name = wanted === undefined ? animations[0] : animations.find((entry) => entry.endsWith(`/${wanted}.json`))
    if (name === undefined) throw broken('the .lottie file holds no animation')
    return await readEntry(zip, entries.get(name)!, maxBytes)
  } finally {
    zip.close()
  }
}

function openZip(bytes: Uint8Array): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(Buffer.from(bytes), { lazyEntries: true, validateEntrySizes: true, autoClose: false }, (error, zip) => {
      if (error || !zip) reject(broken('the .lottie file is not a readable ZIP'))
      else resolve(zip)
    })
  })
}

/** The archive's entries by name (every one listed before any is read). */
function zipEntries(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  if (zip.entryCount > MAX_ZIP_ENTRIES) return Promise.reject(broken(`the .lottie file has more than ${MAX_ZIP_ENTRIES} entries`))
  return new Promise((resolve, reject) => {
    const entries = new Map<string, yauzl.Entry>()
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.set(entry.fileName, entry)
      zip.readEntry()
    })
    zip.once('end', () => resolve(entries))
    zip.once('error', () => reject(broken('the .lottie file is not a readable ZIP')))
    zip.readEntry()
  })
}

/** One entry's bytes; its declared size is checked first, and the bytes as they come (yauzl checks they match). */
function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, maxBytes: number): Promise<Uint8Array> {
  if (entry.uncompressedSize > maxBytes) return Promise.reject(new UnpackedTooLargeError(maxBytes))
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) return reject(broken(`the .lottie entry ${entry.fileName} cannot be read`))
      const chunks: Buffer[] = []
      let size = 0
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > maxBytes) {
          stream.destroy()
          reject(new UnpackedTooLargeError(maxBytes))
        } else chunks.push(chunk)
      })
      stream.once('error', () => reject(broken(`the .lottie entry ${entry.fileName} is damaged`)))
      stream.once('end', () => resolve(new Uint8Array(Buffer.concat(chunks))))
    })
  })
}

/** The animation ids a manifest lists, in order (dotLottie 1 and 2 both have `animations: [{ id }]`). */
function parseManifest(bytes: Uint8Array): string[] {
  let manifest: unknown
  try {
    manifest = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    throw broken('the .lottie manifest.json is not valid JSON')
  }
  const animations = (manifest as { animations?: unknown } | null)?.animations
  if (!Array.isArray(animations)) throw broken('the .lottie manifest.json lists no animations')
  return animations.flatMap((animation) =>
    typeof (animation as { id?: unknown } | null)?.id === 'string' ? [(animation as { id: string }).id] : [],
  )
}
