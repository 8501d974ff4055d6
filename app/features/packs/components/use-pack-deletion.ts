import { notifications } from '@mantine/notifications'
import { useState } from 'react'
import type { Pack } from '../../../../contract/pack'
import { errorMessage } from '../../../lib/error-message'
import { useDeletePack } from '../api'

/** Deleting a pack from a list: which one is asked about, and the confirmed delete with its toast. */
export function usePackDeletion() {
  const remove = useDeletePack()
  const [toDelete, setToDelete] = useState<Pack | null>(null)

  async function confirmDelete() {
    if (!toDelete) return
    try {
      const { deletedCount } = await remove.mutateAsync(toDelete.id)
      notifications.show(
        deletedCount > 0 ? { color: 'green', message: 'Pack deleted' } : { color: 'yellow', message: 'This pack was already deleted' },
      )
      setToDelete(null)
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not delete the pack', message: errorMessage(error) })
    }
  }

  return { toDelete, askToDelete: setToDelete, confirmDelete, deleting: remove.isPending }
}
