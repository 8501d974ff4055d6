import { showToast } from '../../lib/toast'
import { saveBlob } from '../../lib/download'
import { errorMessage } from '../../lib/error-message'
import { canShareFiles } from '../../lib/share'
import { fetchAsDownload } from './use-file-download'

export interface StickerSender {
  /** Opens the share sheet with the file (fetched on the first tap and kept), or downloads it where files cannot be shared. */
  send(description: string): Promise<void>
}

/**
 * Send: the sticker file itself to the device's share sheet, so a chat app gets the animation, not a link.
 * Where files cannot be shared (most desktops) the file is downloaded instead, and the toast says so. Offline
 * it sends the copy kept on the device (saved or downloaded before). A browser opens the sheet only soon after
 * a tap: if the file took too long, it is kept and the next tap sends it at once.
 */
export function stickerSender(url: string, fileName: string, type?: string): StickerSender {
  let fetched: Promise<File> | null = null

  function fetchFile(): Promise<File> {
    if (!fetched) {
      const loading = fetchAsDownload(url).then(
        (blob) => new File([blob], fileName, { type: blob.type || type || 'application/octet-stream' }),
      )
      // A failed fetch is tried again on the next tap.
      loading.catch(() => fetched === loading && (fetched = null))
      fetched = loading
    }
    return fetched
  }

  return {
    async send(description) {
      try {
        const file = await fetchFile()
        if (!canShareFiles([file])) {
          saveBlob(file, file.name)
          showToast({ message: `This browser cannot send files to other apps: ${file.name} was downloaded instead.` })
          return
        }
        try {
          await navigator.share({ files: [file], title: description })
        } catch (error) {
          if (error instanceof DOMException && error.name === 'AbortError') return
          if (error instanceof DOMException && error.name === 'NotAllowedError') {
            showToast({ message: 'The sticker is ready: tap Send again.' })
            return
          }
          throw error
        }
      } catch (error) {
        showToast({ color: 'red', title: 'Could not send the sticker', message: errorMessage(error, 'Please try again.') })
      }
    },
  }
}
