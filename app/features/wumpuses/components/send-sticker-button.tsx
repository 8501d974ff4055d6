import { Button, type ButtonProps } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { useRef, useState } from 'react'
import { fileNameFromUrl, saveBlob } from '../../../lib/download'
import { StrokeIcon } from '../../../components/stroke-icon'
import { errorMessage } from '../../../lib/error-message'
import { canShareFiles } from '../../../lib/share'
import { fetchAsDownload } from '../use-file-download'

interface SendStickerButtonProps extends Omit<ButtonProps, 'children'> {
  /** Same-origin URL of the file sent. */
  url: string
  /** Its name as sent; by default the URL's last segment. */
  fileName?: string
  /** What is sent, for the share sheet and screen readers ("Waving Wumpus as a GIF"). */
  description: string
  /**
   * The file's type, when the button shows only where the device can share that type (a Download button
   * beside it serves the others). Without it, the button always shows and downloads where it cannot send.
   */
  onlyIfShareable?: string
}

/**
 * Send: the sticker file itself to the device's share sheet, so a chat app gets the animation, not a link.
 * Where files cannot be shared (most desktops) the file is downloaded instead, and the toast says so. Offline
 * it sends the copy kept on the device (saved or downloaded before). A browser opens the sheet only soon after
 * a tap: if the file took too long, it is kept and the next tap sends it at once.
 */
export function SendStickerButton({
  url,
  fileName = fileNameFromUrl(url),
  description,
  onlyIfShareable,
  ...props
}: SendStickerButtonProps) {
  const [busy, setBusy] = useState(false)
  const fetched = useRef<Promise<File> | null>(null)
  if (onlyIfShareable && !canShareFiles([new File([], fileName, { type: onlyIfShareable })])) return null

  function fetchFile(): Promise<File> {
    if (!fetched.current) {
      const loading = fetchAsDownload(url).then(
        (blob) => new File([blob], fileName, { type: blob.type || onlyIfShareable || 'application/octet-stream' }),
      )
      // A failed fetch is tried again on the next tap.
      loading.catch(() => fetched.current === loading && (fetched.current = null))
      fetched.current = loading
    }
    return fetched.current
  }

  async function send() {
    setBusy(true)
    try {
      const file = await fetchFile()
      if (canShareFiles([file])) {
        try {
          await navigator.share({ files: [file], title: description })
        } catch (error) {
          if (error instanceof DOMException && error.name === 'AbortError') return
          if (error instanceof DOMException && error.name === 'NotAllowedError') {
            notifications.show({ message: 'The sticker is ready: tap Send again.' })
            return
          }
          throw error
        }
      } else {
        saveBlob(file, file.name)
        notifications.show({ message: `This browser cannot send files to other apps: ${file.name} was downloaded instead.` })
      }
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not send the sticker', message: errorMessage(error, 'Please try again.') })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Button loading={busy} onClick={() => void send()} leftSection={<SendIcon />} aria-label={`Send ${description}`} {...props}>
      Send
    </Button>
  )
}

function SendIcon() {
  return (
    <StrokeIcon>
      <path d="M21 3 10 14M21 3l-7 18-4-7-7-4 18-7z" />
    </StrokeIcon>
  )
}
