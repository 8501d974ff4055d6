import { ActionIcon, Button, Group, Modal, Stack, Text } from '@mantine/core'
import { TrashIcon } from './admin-icons'
import classes from './admin-table.module.css'

/** The red Delete icon of an admin table's row. */
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

/** "Delete X?" with what it does, Cancel and Delete; it cannot be closed while the delete is on its way. */
export function ConfirmDeleteModal({ name, consequence, pending, online, onCancel, onConfirm }: ConfirmDeleteModalProps) {
  return (
    <Modal
      opened={name !== null}
      onClose={() => !pending && onCancel()}
      title={name !== null ? `Delete ${name}?` : undefined}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <Text size="sm">{consequence}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button color="red" onClick={onConfirm} loading={pending} disabled={!online}>
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
