import { Button, Group, Modal, Stack, Text, type MantineColor } from '@mantine/core'
import type { ReactNode } from 'react'

interface ConfirmModalProps {
  /** The question (e.g. "Delete Moon Wumpus?"); null: the dialog is closed. */
  title: string | null
  /** What confirming does, in a sentence or two. */
  children: ReactNode
  confirmLabel: string
  color?: MantineColor
  pending: boolean
  /** Offline: the action cannot be sent. */
  online: boolean
  onCancel: () => void
  onConfirm: () => void
}

/** A question with what the action does, Cancel and the action; it cannot be closed while the action is on its way. */
export function ConfirmModal({ title, children, confirmLabel, color, pending, online, onCancel, onConfirm }: ConfirmModalProps) {
  return (
    <Modal
      opened={title !== null}
      onClose={() => !pending && onCancel()}
      title={title ?? undefined}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <Text size="sm">{children}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button color={color} onClick={onConfirm} loading={pending} disabled={!online}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
