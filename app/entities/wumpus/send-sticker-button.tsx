import { Button, type ButtonProps } from '@mantine/core'
import { useRef, useState } from 'react'
import { fileNameFromUrl } from '../../lib/download'
import { canShareFiles } from '../../lib/share'
import { stickerSender, type StickerSender } from './send-sticker'
import { SendIcon } from './send-icon'

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

/** Send (see send-sticker.ts): the sticker file itself to the device's share sheet, or a download where it has none. */
export function SendStickerButton({
  url,
  fileName = fileNameFromUrl(url),
  description,
  onlyIfShareable,
  ...props
}: SendStickerButtonProps) {
  const [busy, setBusy] = useState(false)
  const sender = useRef<StickerSender | null>(null)
  if (onlyIfShareable && !canShareFiles([new File([], fileName, { type: onlyIfShareable })])) return null

  async function send() {
    setBusy(true)
    sender.current ??= stickerSender(url, fileName, onlyIfShareable)
    await sender.current.send(description)
    setBusy(false)
  }

  return (
    <Button loading={busy} onClick={() => void send()} leftSection={<SendIcon />} aria-label={`Send ${description}`} {...props}>
      Send
    </Button>
  )
}
