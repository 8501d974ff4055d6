import { Button, VisuallyHidden, type ButtonProps } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { useState } from 'react'
import type { Wumpus } from '../../../../contract/wumpus'
import { saveErrorMessage } from '../offline-errors'
import { removeFromOffline, saveForOffline } from '../saved-stickers'
import { useSavedStickers } from '../use-saved-stickers'

interface SaveOfflineButtonProps extends ButtonProps {
  wumpus: Wumpus
  /**
   * On cards: the accessible name says which sticker ("Save Waving Wumpus for offline"), and once
   * saved the button just reads "Remove" (the card shows a "Saved for offline" badge).
   */
  named?: boolean
}

/** Saves the animation and its three files on this device, or removes them again. */
export function SaveOfflineButton({ wumpus, named = false, ...buttonProps }: SaveOfflineButtonProps) {
  const saved = useSavedStickers()
  const isSaved = saved?.has(wumpus._id) ?? false
  const [busy, setBusy] = useState(false)

  async function toggle() {
    setBusy(true)
    try {
      if (isSaved) {
        await removeFromOffline(wumpus._id)
        notifications.show({ title: 'Removed from offline', message: `${wumpus.name} no longer takes space on this device.` })
      } else {
        await saveForOffline(wumpus)
        notifications.show({ color: 'green', title: 'Saved for offline', message: `${wumpus.name} and its three files work without a connection.` })
      }
    } catch (error) {
      notifications.show({ color: 'red', title: isSaved ? 'Could not remove it' : 'Could not save for offline', message: saveErrorMessage(error) })
    } finally {
      setBusy(false)
    }
  }

  // One span: the button's label is a flex box, which would trim the spaces around the hidden name.
  let label
  if (!named) label = isSaved ? 'Remove from offline' : 'Save for offline'
  else if (isSaved) label = <span>Remove <VisuallyHidden component="span">{wumpus.name} from offline</VisuallyHidden></span>
  else label = <span>Save <VisuallyHidden component="span">{wumpus.name}</VisuallyHidden> for offline</span>

  return (
    <Button variant="default" {...buttonProps} loading={busy} disabled={saved === null} onClick={() => void toggle()}>
      {label}
    </Button>
  )
}
