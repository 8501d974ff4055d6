import { platformEmoji, PLATFORM_RULES, PLATFORMS, type StickerExport } from '../../../../contract/stickers'
import type { WumpusRecord } from '../../store/port'
import { currentDerived } from '../../store/records'
import type { FileKeys } from '../file-keys'
import { recordFileUrl } from './file'

const NOT_YET = 'Being made: the server renders it from the Lottie, usually within a minute.'

/** One entry per platform, from what is stored on the record (GET /api/wumpus/{id}/stickers). */
export function toApiStickers(record: WumpusRecord, keys?: FileKeys): StickerExport[] {
  const fileUrl = recordFileUrl(record, keys)
  const current = currentDerived(record)
  return PLATFORMS.map((platform) => {
    const base = {
      platform,
      label: PLATFORM_RULES[platform].label,
      url: null,
      fileName: null,
      contentType: null,
      bytes: null,
      width: null,
      height: null,
      frames: null,
      durationMs: null,
      emoji: platformEmoji(
        platform,
        record.emoji.map((emoji) => emoji.char),
      ),
    }
    const made = current?.exports.find((e) => e.platform === platform)
    if (!current || !made) return { ...base, status: 'pending' as const, notes: [NOT_YET] }
    const file = made.file
    if (!file) return { ...base, status: 'absent' as const, notes: made.notes }
    return {
      ...base,
      status: 'ready' as const,
      url: fileUrl(file),
      fileName: file.filename,
      contentType: file.contentType,
      bytes: file.bytes,
      width: file.width,
      height: file.height,
      frames: file.frames,
      durationMs: file.durationMs,
      notes: made.notes,
    }
  })
}
