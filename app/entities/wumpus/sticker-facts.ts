import { PLATFORM_RULES, type StickerExport } from '../../../contract/stickers'
import { formatBytes } from '../../lib/format-bytes'

/** A ready file in a few words: "320x320 APNG, 180.0 KB". */
export function stickerSummary(sticker: StickerExport): string {
  const kind = PLATFORM_RULES[sticker.platform].kind
  if (sticker.status !== 'ready' || sticker.bytes === null) return kind
  return `${sticker.width}x${sticker.height} ${kind}, ${formatBytes(sticker.bytes)}`
}
