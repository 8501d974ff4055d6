import { Button } from '@mantine/core'
import { lazy, Suspense, useState } from 'react'
import type { ReportTarget } from './report-dialog'

// Few people report: the form (a dialog, its fields, the reports API) loads when someone reaches for the button
// (pointer over it, a touch, focus), not with every sticker's and pack's page, which hydrate without it.
const loadDialog = () => import('./report-dialog')
const ReportDialog = lazy(() => loadDialog().then(({ ReportDialog }) => ({ default: ReportDialog })))

/** "Report a problem" under a sticker or a shared pack: a reason, an optional note, sent to the admins. */
export function ReportButton({ target, name }: ReportTarget) {
  const [opened, setOpened] = useState(false)
  // Once opened the dialog stays mounted, so it closes with its transition and opens again at once.
  const [asked, setAsked] = useState(false)
  return (
    <>
      <Button
        variant="subtle"
        color="gray"
        size="xs"
        onClick={() => {
          setAsked(true)
          setOpened(true)
        }}
        onPointerEnter={() => void loadDialog()}
        onFocus={() => void loadDialog()}
        style={{ alignSelf: 'flex-start' }}
      >
        Report a problem
      </Button>
      {asked && (
        <Suspense fallback={null}>
          <ReportDialog target={target} name={name} opened={opened} onClose={() => setOpened(false)} />
        </Suspense>
      )}
    </>
  )
}
