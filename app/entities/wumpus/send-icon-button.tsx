import { useRef, useState, useSyncExternalStore } from 'react'
import type { Wumpus } from '../../../contract/wumpus'
import { PlainButton } from '../../components/plain-button'
import { StrokeIcon } from '../../components/stroke-icon'
import { fileNameFromUrl } from '../../lib/download'
import { canShareFiles } from '../../lib/share'
import type { StickerSender } from './send-sticker'
import { SEND_PATH } from './send-icon'

let known: { canShare: unknown; answer: boolean } | undefined
/**
 * Whether this device's share sheet takes a GIF (phones). Asked on every render of every card (React reads
 * the snapshot again after rendering), so the answer is kept while the browser's `canShare` stays the same.
 */
function canSendGifs(): boolean {
  const canShare = typeof navigator === 'undefined' ? undefined : navigator.canShare
  if (!known || known.canShare !== canShare)
    known = { canShare, answer: canShareFiles([new File([], 'sticker.gif', { type: 'image/gif' })]) }
  return known.answer
}
const unchanging = () => () => {}

/**
 * Gallery cards on a phone: Send the sticker's GIF to the share sheet (send-sticker.ts, loaded on the first
 * tap: the home page's script budget). Not shown where files cannot be shared, nor in the server's HTML
 * (it appears once the card has hydrated): the card's Download serves those.
 */
export function SendIconButton({ wumpus }: { wumpus: Wumpus }) {
  const shown = useSyncExternalStore(unchanging, canSendGifs, () => false)
  const sender = useRef<Promise<StickerSender> | null>(null)
  const [busy, setBusy] = useState(false)
  if (!shown) return null

  async function send() {
    setBusy(true)
    sender.current ??= import('./send-sticker').then(({ stickerSender }) =>
      stickerSender(wumpus.gif, fileNameFromUrl(wumpus.gif), 'image/gif'),
    )
    try {
      await (await sender.current).send(`${wumpus.name} as a GIF`)
    } catch {
      // Its code could not load (offline before it was kept): the next tap tries again.
      sender.current = null
    } finally {
      setBusy(false)
    }
  }

  return (
    <PlainButton
      shape="icon"
      variant="default"
      size="input-sm"
      loading={busy}
      onClick={() => void send()}
      aria-label={`Send ${wumpus.name} as a GIF`}
      title="Send"
    >
      <StrokeIcon size={18}>
        <path d={SEND_PATH} />
      </StrokeIcon>
    </PlainButton>
  )
}
