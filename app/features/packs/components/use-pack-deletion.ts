import type { Pack } from '../../../../contract/pack'
import { useDeleteConfirmation } from '../../../components/confirm-delete'
import { useDeletePack } from '../api'

/** Deleting a pack from a list: which one is asked about, and the confirmed delete with its toast. */
export function usePackDeletion() {
  const remove = useDeletePack()
  const deletion = useDeleteConfirmation((pack: Pack) => remove.mutateAsync(pack.id), {
    deleted: 'Pack deleted',
    alreadyGone: 'This pack was already deleted',
    failed: 'Could not delete the pack',
  })
  return { ...deletion, deleting: remove.isPending }
}
