import type { Wumpus } from '../../../contract/wumpus'
import { PlainButton } from '../../components/plain-button'
import { useEarlyAction } from '../../lib/early-actions'
import { useSaveToggle } from './use-save-toggle'

/**
 * Gallery cards: a bookmark icon named "Save {name} for offline" (filled once saved: "Remove {name}
 * from offline"). An icon keeps the card's row to one line at every width. A plain button: the
 * gallery is on the home page, whose script budget has no room for Mantine's ActionIcon.
 *
 * Never disabled while the saved stickers are being read: it says Save then, and a tap saves. A tap
 * before the app ran (server-rendered page) is replayed once it has: it can only have meant Save.
 */
export function SaveOfflineIconButton({ wumpus }: { wumpus: Wumpus }) {
  const { isSaved, busy, toggle } = useSaveToggle(wumpus)
  const earlyAction = `save:${wumpus._id}`
  useEarlyAction(earlyAction, toggle)
  const label = isSaved ? `Remove ${wumpus.name} from offline` : `Save ${wumpus.name} for offline`
  return (
    <PlainButton
      shape="icon"
      variant={isSaved ? 'filled' : 'default'}
      size="input-sm"
      loading={busy}
      onClick={toggle}
      aria-label={label}
      title={isSaved ? 'Remove from offline' : 'Save for offline'}
      data-early-action={earlyAction}
      // index.html's early tap script may have set aria-busy on the server-rendered button.
      suppressHydrationWarning
    >
      <svg
        width={18}
        height={18}
        viewBox="0 0 24 24"
        fill={isSaved ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth={2}
        strokeLinejoin="round"
        aria-hidden="true"
      >
        <path d="M6 3h12v18l-6-4.5L6 21z" />
      </svg>
    </PlainButton>
  )
}
