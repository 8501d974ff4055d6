import { fileIdOfPath } from '../../../contract/api-paths'
import { CONTENT_TYPE, type MediaFormat } from '../../../contract/limits'
import type { Config } from '../config'
import type { Logger } from '../logger'
import { fetchRemote } from '../media/fetch/fetch-remote'
import { inspectMedia } from '../media/inspect/inspect'
import { MediaError } from '../media/inspect/media-error'
import { RenderQueueFullError, renderAnimation } from '../media/render/render-pool'
import type { Store, StoredFile } from '../store/port'
import { linkFileName, safeBaseName } from './file-names'
import { busy, DomainError, invalid, notFound, tooLarge } from '../domain/errors'

/**
 * The three files of an animation before it is published: each judged by its bytes against its format
 * and byte limit, stored under its uploader (purpose 'animation'), GIF and APNG rendered from the Lottie
 * when they are not sent.
 */
export interface AnimationFilesDeps {
  store: Store
  config: Config
  logger: Logger
}

/** Uploading an animation's files one by one, each judged before the animation is published. */
export interface AnimationFileService {
  /** One file sent for an animation (POST /uploads/animation): within its limit, judged by its bytes, stored. */
  upload(owner: string, sent: { format: MediaFormat; bytes: Uint8Array; name: string }): Promise<InspectedFile>
  /** The Lottie behind a link (POST /uploads/lottie-link), judged and stored like a sent one. */
  uploadLink(owner: string, url: string): Promise<InspectedFile>
  /** GIF and APNG rendered from an uploaded Lottie (POST /renders), stored under the caller. */
  render(owner: string, lottieId: string): Promise<Record<'gif' | 'apng', InspectedFile>>
}

export function createAnimationFileService(deps: AnimationFilesDeps): AnimationFileService {
  return {
    upload: (owner, sent) => uploadAnimationFile(deps, owner, sent),
    uploadLink: (owner, url) => uploadLottieLink(deps, owner, url),
    render: (owner, lottieId) => renderUploadedLottie(deps, owner, lottieId),
  }
}

/** A file stored for an animation, with what its inspection read from the bytes. */
export interface InspectedFile {
  file: StoredFile
  info: MediaInfo
}

export type MediaInfo = ReturnType<typeof inspectMedia>

const EXTENSION: Record<MediaFormat, string> = { gif: 'gif', apng: 'png', lottie: 'json' }

/** The byte limit of each format, from the config. */
export function limitOf(config: Config, format: MediaFormat): number {
  return config.limits[format]
}

/** Inspects bytes as the given format; refusals become 415 (wrong kind) or 400 (broken), with the media code. */
export function inspectAs(bytes: Uint8Array, format: MediaFormat): MediaInfo {
  try {
    return inspectMedia(bytes, format)
  } catch (error) {
    if (!(error instanceof MediaError)) throw error
    const wrongKind = error.code === 'WRONG_FORMAT' || error.code === 'BAD_SIGNATURE' || error.code === 'NOT_ANIMATED'
    throw new DomainError(wrongKind ? 'wrong-type' : 'invalid', `${labelOf(format)}: ${error.message}`, {
      mediaCode: error.code,
      format,
      ...(error.details && typeof error.details === 'object' ? error.details : {}),
    })
  }
}

const labelOf = (format: MediaFormat) => ({ gif: 'GIF', apng: 'APNG', lottie: 'Lottie' })[format]

/** Stores bytes already inspected as `format`, under the uploader, for use in an animation. */
export async function storeAnimationFile(
  store: Store,
  bytes: Uint8Array,
  format: MediaFormat,
  originalName: string,
  owner: string,
): Promise<StoredFile> {
  const base = safeBaseName(originalName) || 'wumpus'
  return store.files.put({
    bytes,
    contentType: CONTENT_TYPE[format],
    filename: `${base}.${EXTENSION[format]}`,
    owner,
    purpose: 'animation',
  })
}

/** One file sent for an animation (POST /uploads/animation): within its limit, judged by its bytes, stored. */
async function uploadAnimationFile(
  deps: AnimationFilesDeps,
  owner: string,
  sent: { format: MediaFormat; bytes: Uint8Array; name: string },
): Promise<InspectedFile> {
  const { format, bytes } = sent
  const info = checkedAnimationFile(deps.config, format, bytes)
  return { file: await storeAnimationFile(deps.store, bytes, format, sent.name, owner), info }
}

/** Bytes for an animation's file in `format`: within its limit (413) and judged by inspectAs. */
export function checkedAnimationFile(config: Config, format: MediaFormat, bytes: Uint8Array): MediaInfo {
  const limit = limitOf(config, format)
  if (bytes.length > limit) throw tooLarge(`${labelOf(format)} files may be at most ${limit} bytes`)
  return inspectAs(bytes, format)
}

/** The Lottie behind a link (POST /uploads/lottie-link), judged and stored like a sent one. */
async function uploadLottieLink(deps: AnimationFilesDeps, owner: string, url: string): Promise<InspectedFile> {
  const { bytes, name } = await linkedLottie(deps, url)
  const info = inspectAs(bytes, 'lottie')
  return { file: await storeAnimationFile(deps.store, bytes, 'lottie', name, owner), info }
}

/** Bytes of a Lottie behind a link, within the Lottie limit. */
export async function linkedLottie(
  deps: Pick<AnimationFilesDeps, 'store' | 'config'>,
  url: string,
): Promise<{ bytes: Uint8Array; name: string }> {
  const linked = await lottieFromLink(deps.store, deps.config, url)
  if (linked.bytes.length > deps.config.limits.lottie) throw tooLarge('The linked Lottie is too large')
  return linked
}

/** Bytes of a Lottie behind a link: one of our own file URLs, or an https link fetched with care. */
export async function lottieFromLink(store: Store, config: Config, link: string): Promise<{ bytes: Uint8Array; name: string }> {
  // Our own file URLs, with this server's origin or without.
  const own = fileIdOfPath(link.replace(/^https?:\/\/[^/]+/, ''))
  if (own) {
    const file = await store.files.read(own)
    if (!file) throw notFound('No file at that link')
    return { bytes: file.bytes, name: file.info.filename }
  }
  const bytes = await fetchRemote(link, { maxBytes: config.limits.lottie })
  return { bytes, name: linkFileName(link) || 'wumpus.json' }
}

/** GIF and APNG rendered from an uploaded Lottie (POST /renders): any animation Lottie, stored under the caller. */
async function renderUploadedLottie(
  deps: AnimationFilesDeps,
  owner: string,
  lottieId: string,
): Promise<Record<'gif' | 'apng', InspectedFile>> {
  const file = await deps.store.files.read(lottieId)
  if (!file || file.info.purpose !== 'animation' || file.info.contentType !== CONTENT_TYPE.lottie)
    throw notFound('No uploaded Lottie with this id')
  return renderAndStore(deps.store, file.bytes, file.info.filename, owner, deps.logger)
}

/** Renders GIF and APNG from a Lottie in the worker, inspects and stores both. */
export async function renderAndStore(
  store: Store,
  lottieBytes: Uint8Array,
  name: string,
  owner: string,
  logger?: Logger,
): Promise<Record<'gif' | 'apng', InspectedFile>> {
  let lottie: unknown
  try {
    lottie = JSON.parse(new TextDecoder().decode(lottieBytes))
  } catch {
    throw invalid('The Lottie is not valid JSON')
  }
  let rendered
  try {
    rendered = await renderAnimation(lottie as object)
  } catch (error) {
    if (error instanceof RenderQueueFullError) {
      const { retryAfterSeconds } = error
      throw busy('The server is busy rendering other animations; try again shortly', retryAfterSeconds, { retryAfterSeconds })
    }
    // What went wrong inside the renderer is for the logs; the answer only says that it did.
    logger?.error('render failed', { error: String(error) })
    throw invalid('The Lottie could not be rendered: it may use features the renderer does not support, or be too heavy', {
      reason: 'render-failed',
    })
  }
  const stored: Partial<Record<'gif' | 'apng', InspectedFile>> = {}
  for (const format of ['gif', 'apng'] as const) {
    const info = inspectAs(rendered[format], format)
    stored[format] = { file: await storeAnimationFile(store, rendered[format], format, name, owner), info }
  }
  return stored as Record<'gif' | 'apng', InspectedFile>
}
