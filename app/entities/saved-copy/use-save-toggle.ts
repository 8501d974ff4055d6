import { useState } from 'react'
import type { Wumpus } from '../../../contract/wumpus'
import { showToast } from '../../lib/toast'
import { saveErrorMessage } from './save-errors'
import { useSavedStickers } from './use-saved-stickers'

/** Saved state of one sticker and the action that flips it (with toasts). */
export function useSaveToggle(wumpus: Wumpus) {
  const saved = useSavedStickers()
  const isSaved = saved?.has(wumpus._id) ?? false
  const [busy, setBusy] = useState(false)

  async function toggle() {
    setBusy(true)
    try {
      const { removeFromOffline, saveForOffline } = await import('../../lib/local-data/saved-stickers')
      if (isSaved) {
        await removeFromOffline(wumpus._id)
        showToast({ title: 'Removed from offline', message: `${wumpus.name} no longer takes space on this device.` })
      } else {
        await saveForOffline(wumpus)
        const message = `${wumpus.name} and its files work without a connection.`
        showToast({ color: 'green', title: 'Saved for offline', message })
      }
    } catch (error) {
      showToast({
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
