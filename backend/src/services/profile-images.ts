import { fileIdOfPath } from '../../../contract/api-paths'
import { MAX_PENDING_IMAGES, MAX_PROFILE_IMAGE_FRAMES, MAX_PROFILE_IMAGE_PIXELS } from '../../../contract/limits'
import { inspectImage } from '../media/inspect/inspect-image'
import { MediaError } from '../media/inspect/media-error'
import type { Store, StoredFile } from '../store/port'
import { safeBaseName } from './file-names'
import { DomainError, invalid } from '../domain/errors'

const EXTENSION: Record<string, string> = { png: 'png', apng: 'png', gif: 'gif', jpeg: 'jpg', webp: 'webp' }

/** Profile photos and covers, uploaded before a profile uses them. */
export interface ProfileImageService {
  /** Judges and stores an uploaded image under its owner (storeProfileImage). */
  save(owner: string, bytes: Uint8Array, originalName: string): Promise<StoredFile>
}

export function createProfileImageService(store: Store): ProfileImageService {
  return { save: (owner, bytes, originalName) => storeProfileImage(store, owner, bytes, originalName) }
}

/**
 * A profile photo or cover, judged by its bytes and by what a browser must decode to show it; stored
 * under its owner, named after the sent file. Each user keeps at most MAX_PENDING_IMAGES uploads not yet used in their profile:
 * the oldest of those go to make room, so repeated uploads cannot fill the disk.
 */
async function storeProfileImage(store: Store, owner: string, bytes: Uint8Array, originalName: string): Promise<StoredFile> {
  let info: ReturnType<typeof inspectImage>
  try {
    info = inspectImage(bytes)
  } catch (error) {
    if (error instanceof MediaError) {
      const kind = error.code === 'BAD_SIGNATURE' ? 'wrong-type' : 'invalid'
      throw new DomainError(kind, `Not an image we can use: ${error.message}`, { mediaCode: error.code })
    }
    throw error
  }
  const pixels = info.width * info.height * info.frames
  if (info.frames > MAX_PROFILE_IMAGE_FRAMES || pixels > MAX_PROFILE_IMAGE_PIXELS) {
    throw invalid(
      `Profile images may have at most ${MAX_PROFILE_IMAGE_FRAMES} frames and ${MAX_PROFILE_IMAGE_PIXELS / 1024 / 1024} megapixels in all`,
      {
        mediaCode: 'TOO_LARGE',
        frames: info.frames,
        pixels,
        maxFrames: MAX_PROFILE_IMAGE_FRAMES,
        maxPixels: MAX_PROFILE_IMAGE_PIXELS,
      },
    )
  }
  const stored = await store.files.put({
    bytes,
    contentType: info.contentType,
    filename: `${safeBaseName(originalName) || 'image'}.${EXTENSION[info.format] ?? 'img'}`,
    owner,
    purpose: 'image',
  })
  await dropOldPendingImages(store, owner)
  return stored
}

async function dropOldPendingImages(store: Store, owner: string): Promise<void> {
  const user = await store.users.get(owner)
  const used = new Set([user?.photo, user?.cover].map((url) => fileIdOfPath(url ?? '')))
  const pending = (await store.files.listByOwner(owner, 'image')).filter((file) => !used.has(file.id))
  for (const file of pending.slice(0, Math.max(0, pending.length - MAX_PENDING_IMAGES))) await store.files.delete(file.id)
}
