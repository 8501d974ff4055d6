import { pickMediaFacts } from '../../../../contract/media-facts'
import { discordNameNote, stickerExports, type StickerExport } from '../../../../contract/stickers'
import type { WumpusRecord } from '../../store/port'
import { currentDerived } from '../../store/records'
import type { FileKeys } from '../file-keys'
import { recordFileUrl } from './file'
import { shownFileName } from '../../services/file-names'

/** One entry per platform, from what is stored on the record (GET /api/wumpus/{id}/stickers). */
export function toApiStickers(record: WumpusRecord, keys?: FileKeys): StickerExport[] {
  const fileUrl = recordFileUrl(record, keys)
  const made = currentDerived(record)?.exports.map(({ platform, file, notes }) => ({
    platform,
    notes,
    ...(file ? { file: { ...pickMediaFacts(file), url: fileUrl(file), fileName: shownFileName(record, file.filename) } } : {}),
  }))
  // Discord takes sticker names of 2 to 30 characters: a longer name's file says what to name it.
  const nameNote = discordNameNote(record.name)
  return stickerExports(
    made,
    record.emoji.map((emoji) => emoji.char),
  ).map((sticker) =>
    nameNote && sticker.platform === 'discord' && sticker.status === 'ready'
      ? { ...sticker, notes: [...sticker.notes, nameNote] }
      : sticker,
  )
}
