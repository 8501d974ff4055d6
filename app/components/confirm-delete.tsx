import { ActionIcon } from '@mantine/core'
import { showToast } from '../lib/toast'
import { useState } from 'react'
import { errorMessage } from '../lib/error-message'
import classes from './admin-table.module.css'
import { ConfirmModal } from './confirm-modal'
import { TrashIcon } from './icons'

/** The red Delete icon of a table's row or a card. */
export function DeleteIconButton({ name, disabled, onClick }: { name: string; disabled: boolean; onClick: () => void }) {
  return (
    <ActionIcon
      variant="light"
      color="red"
      size="lg"
      className={classes.icon}
      aria-label={`Delete ${name}`}
      title="Delete"
      disabled={disabled}
      onClick={onClick}
    >
      <TrashIcon />
    </ActionIcon>
  )
}

interface ConfirmDeleteModalProps {
  /** What is about to be deleted; null: the dialog is closed. */
  name: string | null
  /** What deleting it does, in a sentence. */
  consequence: string
  pending: boolean
  /** Offline: Delete cannot be sent. */
  online: boolean
  onCancel: () => void
  onConfirm: () => void
}

/** "Delete X?" with what it does, Cancel and Delete. */
export function ConfirmDeleteModal({ name, consequence, ...actions }: ConfirmDeleteModalProps) {
  return (
    <ConfirmModal title={name !== null ? `Delete ${name}?` : null} confirmLabel="Delete" color="red" {...actions}>
      {consequence}
    </ConfirmModal>
  )
}

interface DeletionWords {
  /** The toast once it is deleted. */
  deleted: string
  /** The toast when someone else deleted it first (the server deleted nothing). */
  alreadyGone: string
  /** The title of the toast when deleting failed. */
  failed: string
}

/**
 * Deleting one item of a list: which one the dialog asks about, and the confirmed delete with its toast.
 * `remove` answers how many the server deleted (0: it was already gone).
 */
export function useDeleteConfirmation<Item>(remove: (item: Item) => Promise<{ deletedCount: number }>, words: DeletionWords) {
  const [toDelete, setToDelete] = useState<Item | null>(null)

  async function confirmDelete() {
    if (!toDelete) return
    try {
      const { deletedCount } = await remove(toDelete)
      showToast(deletedCount > 0 ? { color: 'green', message: words.deleted } : { color: 'yellow', message: words.alreadyGone })
      setToDelete(null)
    } catch (error) {
      showToast({ color: 'red', title: words.failed, message: errorMessage(error) })
    }
  }

  return { toDelete, askToDelete: setToDelete, confirmDelete }
}
