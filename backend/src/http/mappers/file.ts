import type { UploadedAnimationFile } from '../../../../contract/wumpus-write'
import type { InspectedFile } from '../../services/animation-files'
import type { FileRef } from '../../store/port'

/** Stable URL of a stored file; it ends with the original name so a download can keep it. */
export function fileUrl(ref: FileRef): string {
  return `/api/files/${ref.id}/${encodeURIComponent(ref.filename)}`
}

/** A file uploaded for an animation as the API shows it, with what its inspection read. */
export function toApiUploadedFile({ file, info }: InspectedFile): UploadedAnimationFile {
  return { id: file.id, url: fileUrl(file), filename: file.filename, info }
}
