import { Button, VisuallyHidden, type ButtonProps } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { useState } from 'react'
import type { Wumpus } from '../../../../contract/wumpus'
import { saveErrorMessage } from '../offline-errors'
import { removeFromOffline, saveForOffline } from '../saved-stickers'
import { useSavedStickers } from '../use-saved-stickers'

interface SaveOfflineButtonProps extends ButtonProps {
  wumpus: Wumpus
  /** On cards the accessible name says which sticker: "Save Waving Wumpus for offline". */
  named?: boolean
}

/** Saves the animation and its three files on this device, or removes them again. */
export function SaveOfflineButton({ wumpus, named = false, ...buttonProps }: SaveOfflineButtonProps) {
  const saved = useSavedStickers()
  const isSaved = saved?.has(wumpus._id) ?? false
  const [busy, setBusy] = useState(false)
  // Out of the flow, so the spaces around it collapse into one on screen.
  const name = named ? <VisuallyHidden component="span">{wumpus.name}</VisuallyHidden> : null

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

  return (
    <Button variant="default" {...buttonProps} loading={busy} disabled={saved === null} onClick={() => void toggle()}>
      {isSaved ? (
        <>
          Remove {name} from offline
        </>
      ) : (
        <>
          Save {name} for offline
        </>
      )}
    </Button>
  )
}
