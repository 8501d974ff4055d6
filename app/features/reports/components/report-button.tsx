import { Button, Group, Modal, Radio, Stack, Textarea } from '@mantine/core'
import { useState } from 'react'
import { REPORT_NOTE_MAX, REPORT_REASONS, type ReportReason } from '../../../../contract/reports'
import { useNeedsNetwork } from '../../../components/needs-network'
import { errorMessage, fieldErrors } from '../../../lib/error-message'
import { showToast } from '../../../lib/toast'
import { useSendReport } from '../api'

interface ReportButtonProps {
  /** What is reported: a sticker or a pack. */
  target: { wumpusId: string } | { packId: string }
  name: string
}

/** "Report a problem" under a sticker or a shared pack: a reason, an optional note, sent to the admins. */
export function ReportButton({ target, name }: ReportButtonProps) {
  const [opened, setOpened] = useState(false)
  const [reason, setReason] = useState<ReportReason | ''>('')
  const [note, setNote] = useState('')
  const [problems, setProblems] = useState<{ reason?: string; note?: string }>({})
  const send = useSendReport()
  const network = useNeedsNetwork()

  const close = () => {
    setOpened(false)
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
    <>
      <Button variant="subtle" color="gray" size="xs" onClick={() => setOpened(true)} style={{ alignSelf: 'flex-start' }}>
        Report a problem
      </Button>
      <Modal
        opened={opened}
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
    </>
  )
}
