import { filePath } from '../../../../contract/api-paths'
import type { UploadedAnimationFile } from '../../../../contract/wumpus-write'
import type { InspectedFile } from '../../services/animation-files'
import type { FileRef, WumpusRecord } from '../../store/port'
import type { FileKeys } from '../file-keys'
import { shownFileName } from '../../services/file-names'

/** Stable URL of a stored file; it ends with the original name so a download can keep it (`key`: http/file-keys.ts). */
export function fileUrl(ref: FileRef, key?: string): string {
  return filePath(ref.id, ref.filename, key)
}

/** The URL of a file of this record, ending with the name it is downloaded under; with its key when the record is a private remix and keys are given. */
export function recordFileUrl(record: WumpusRecord, keys?: FileKeys): (ref: FileRef) => string {
  const remix = record.remix
  return (ref) =>
    fileUrl(
      { ...ref, filename: shownFileName(record, ref.filename) },
      keys && remix?.visibility === 'private' ? keys.sign(ref.id, remix.keyGeneration) : undefined,
    )
}

/** A file uploaded for an animation as the API shows it, with what its inspection read. */
export function toApiUploadedFile({ file, info }: InspectedFile): UploadedAnimationFile {
  return { id: file.id, url: fileUrl(file), filename: file.filename, info }
}
