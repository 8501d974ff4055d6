import { Button } from '@mantine/core'
import { showToast } from '../../lib/toast'
import { useEffect, useState } from 'react'
import type { PackDetail } from '../../../contract/pack'
import { saveErrorMessage } from './save-errors'

/** Pack page: "Save for offline" (every sticker with its files, and the pack), then "Remove from offline". */
export function SavePackOfflineButton({ pack }: { pack: PackDetail }) {
  const [saved, setSaved] = useState<boolean | null>(null)
  const [progress, setProgress] = useState<string | null>(null)

  useEffect(() => {
    let live = true
    void import('../../lib/local-data/saved-packs')
      .then(({ getSavedPack }) => getSavedPack(pack.id))
      .then((found) => live && setSaved(Boolean(found)))
    return () => {
      live = false
    }
  }, [pack.id])

  async function toggle() {
    setProgress('')
    try {
      const { removePackFromOffline, savePackForOffline } = await import('../../lib/local-data/saved-packs')
      if (saved) {
        await removePackFromOffline(pack.id)
        setSaved(false)
        showToast({ title: 'Removed from offline', message: `${pack.name} no longer takes space on this device.` })
      } else {
        await savePackForOffline(pack, (done, total) => setProgress(`${done} of ${total}`))
        setSaved(true)
        showToast({
          color: 'green',
          title: 'Saved for offline',
          message: `${pack.name} and its stickers work without a connection.`,
        })
      }
    } catch (error) {
      showToast({
        color: 'red',
        title: saved ? 'Could not remove it' : 'Could not save for offline',
        message: saveErrorMessage(error),
      })
    } finally {
      setProgress(null)
    }
  }

  return (
    <Button variant="default" loading={progress === ''} disabled={saved === null || progress !== null} onClick={() => void toggle()}>
      {progress ? `Saving ${progress}…` : saved ? 'Remove from offline' : 'Save for offline'}
    </Button>
  )
}
