import { ActionIcon, Button, type ButtonProps } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { useState } from 'react'
import type { Wumpus } from '../../../../contract/wumpus'
import { saveErrorMessage } from '../offline-errors'
import { useSavedStickers } from '../use-saved-stickers'

/** Saved state of one sticker and the action that flips it (with toasts). */
function useSaveToggle(wumpus: Wumpus) {
  const saved = useSavedStickers()
  const isSaved = saved?.has(wumpus._id) ?? false
  const [busy, setBusy] = useState(false)

  async function toggle() {
    setBusy(true)
    try {
      const { removeFromOffline, saveForOffline } = await import('../saved-stickers')
      if (isSaved) {
        await removeFromOffline(wumpus._id)
        notifications.show({ title: 'Removed from offline', message: `${wumpus.name} no longer takes space on this device.` })
      } else {
        await saveForOffline(wumpus)
        const message = `${wumpus.name} and its files work without a connection.`
        notifications.show({ color: 'green', title: 'Saved for offline', message })
      }
    } catch (error) {
      notifications.show({
        color: 'red',
        title: isSaved ? 'Could not remove it' : 'Could not save for offline',
        message: saveErrorMessage(error),
      })
    } finally {
      setBusy(false)
    }
  }

  return { isSaved, busy, ready: saved !== null, toggle: () => void toggle() }
}

/** Detail page: "Save for offline" (the animation and its files), then "Remove from offline". */
export function SaveOfflineButton({ wumpus, ...buttonProps }: ButtonProps & { wumpus: Wumpus }) {
  const { isSaved, busy, ready, toggle } = useSaveToggle(wumpus)
  return (
    <Button variant="default" {...buttonProps} loading={busy} disabled={!ready} onClick={toggle}>
      {isSaved ? 'Remove from offline' : 'Save for offline'}
    </Button>
  )
}

/**
 * Gallery cards: a bookmark icon named "Save {name} for offline" (filled once saved: "Remove {name}
 * from offline"). An icon keeps the card's row to one line at every width.
 */
export function SaveOfflineIconButton({ wumpus }: { wumpus: Wumpus }) {
  const { isSaved, busy, ready, toggle } = useSaveToggle(wumpus)
  const label = isSaved ? `Remove ${wumpus.name} from offline` : `Save ${wumpus.name} for offline`
  return (
    <ActionIcon
      variant={isSaved ? 'filled' : 'default'}
      size="input-sm"
      loading={busy}
      disabled={!ready}
      onClick={toggle}
      aria-label={label}
      title={isSaved ? 'Remove from offline' : 'Save for offline'}
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
    </ActionIcon>
  )
}
