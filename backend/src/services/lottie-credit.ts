// The credited maker written into an animation's stored Lottie (media/encode/lottie-meta.ts) when it is
// published or its Lottie replaced: made once there, so downloads serve the stored bytes as they are and the
// Telegram files made from that Lottie (derived-media.ts) carry the author too.
import { CONTENT_TYPE } from '../../../contract/limits'
import { lottieWithAuthor } from '../media/encode/lottie-meta'
import type { FileRef, Store, WumpusRecord } from '../store/port'
import { stickerMaker } from './sticker-credits'

/**
 * The Lottie `ref` names, stored again with `meta.a` naming the sticker's maker (stickerMaker), as a new
 * file of `owner`'s; undefined when it names them already (or cannot be read: the inspector judged it before).
 * The caller puts the new file in the record and removes the old one once the record is written.
 */
export async function creditedLottie(
  store: Store,
  ref: FileRef,
  record: Pick<WumpusRecord, 'credit' | 'u_name'>,
  owner: string,
): Promise<FileRef | undefined> {
  const file = await store.files.read(ref.id)
  const bytes = file && lottieWithAuthor(file.bytes, stickerMaker(record))
  if (!bytes) return undefined
  const stored = await store.files.put({ bytes, contentType: CONTENT_TYPE.lottie, filename: ref.filename, owner, purpose: 'animation' })
  return { id: stored.id, filename: stored.filename }
}
