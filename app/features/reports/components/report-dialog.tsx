import { Button, Group, Modal, Radio, Stack, Textarea } from '@mantine/core'
import { useEffect, useState } from 'react'
import { REPORT_NOTE_MAX, REPORT_REASONS, type ReportReason } from '../../../../contract/reports'
import { useNeedsNetwork } from '../../../components/needs-network'
import { errorMessage, fieldErrors } from '../../../lib/error-message'
import { showToast } from '../../../lib/toast'
import { useSendReport } from '../api'

export interface ReportTarget {
  /** What is reported: a sticker or a pack. */
  target: { wumpusId: string } | { packId: string }
  name: string
}

/** The report form: a reason, an optional note, sent to the admins. Closing it forgets what was filled in. */
export function ReportDialog({ target, name, opened, onClose }: ReportTarget & { opened: boolean; onClose: () => void }) {
  const [reason, setReason] = useState<ReportReason | ''>('')
  const [note, setNote] = useState('')
  const [problems, setProblems] = useState<{ reason?: string; note?: string }>({})
  const send = useSendReport()
  const network = useNeedsNetwork()
  // Mounted by the first tap already open, Mantine's Modal would skip its opening transition, overlay and all:
  // it opens a render later, as a modal mounted closed does.
  const [shown, setShown] = useState(false)
  useEffect(() => setShown(opened), [opened])

  const close = () => {
    onClose()
    setReason('')
    setNote('')
    setProblems({})
  }
  const submit = async () => {
    const missing = {
      reason: reason === '' ? 'Choose what is wrong' : undefined,
      note: reason === 'other' && note.trim() === '' ? 'Say what is wrong' : undefined,
    }
    setProblems(missing)
    if (reason === '' || missing.note) return
    try {
      await send.mutateAsync({ ...target, reason, note: note.trim() })
      showToast({ color: 'green', message: 'Thank you: an admin will look at it' })
      close()
    } catch (error) {
      setProblems({ note: fieldErrors(error).note })
      showToast({ color: 'red', title: 'Could not send the report', message: errorMessage(error) })
    }
  }

  return (
    <Modal
      opened={shown}
      onClose={() => !send.isPending && close()}
      title={`Report ${name}`}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <Radio.Group label="What is wrong?" value={reason} onChange={(value) => setReason(value)} error={problems.reason} required>
          <Stack gap={6} mt={6}>
            {Object.entries(REPORT_REASONS).map(([key, label]) => (
              <Radio key={key} value={key} label={label} />
            ))}
          </Stack>
        </Radio.Group>
        <Textarea
          label={reason === 'other' ? 'Note' : 'Note (optional)'}
          description="Anything that helps the admins see the problem"
          rows={3}
          maxLength={REPORT_NOTE_MAX}
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
          error={problems.note}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={send.isPending}>
            Cancel
          </Button>
          <Button color="red" onClick={() => void submit()} loading={send.isPending} disabled={!network.online}>
            Send report
          </Button>
        </Group>
        {network.note}
      </Stack>
    </Modal>
  )
}
