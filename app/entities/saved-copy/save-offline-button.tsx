import { Button, type ButtonProps } from '@mantine/core'
import type { Wumpus } from '../../../contract/wumpus'
import { useSaveToggle } from './use-save-toggle'

/** Detail page: "Save for offline" (the animation and its files), then "Remove from offline". */
export function SaveOfflineButton({ wumpus, ...buttonProps }: ButtonProps & { wumpus: Wumpus }) {
  const { isSaved, busy, ready, toggle } = useSaveToggle(wumpus)
  return (
    <Button variant="default" {...buttonProps} loading={busy} disabled={!ready} onClick={toggle}>
      {isSaved ? 'Remove from offline' : 'Save for offline'}
    </Button>
  )
}
