import { Button, Group, Notification, Text } from '@mantine/core'
import { useState, useSyncExternalStore } from 'react'
import { waitingUpdate } from '../sw-updates'
import classes from './update-prompt.module.css'

/** Offers a new version once its service worker waits; Reload activates it and reloads the page. */
export function UpdatePrompt() {
  const applyUpdate = useSyncExternalStore(waitingUpdate.subscribe, waitingUpdate.getSnapshot, () => null)
  const [dismissed, setDismissed] = useState<(() => void) | null>(null)
  const [reloading, setReloading] = useState(false)
  if (!applyUpdate || dismissed === applyUpdate) return null
  return (
    <div className={classes.dock}>
      <Notification
        title="Update available"
        withBorder
        className={classes.prompt}
        closeButtonProps={{ 'aria-label': 'Later' }}
        onClose={() => setDismissed(() => applyUpdate)}
      >
        <Text size="sm" mb="xs">
          A new version of Wumpus Gallery is ready.
        </Text>
        <Group gap="xs">
          <Button
            size="xs"
            loading={reloading}
            onClick={() => {
              setReloading(true)
              applyUpdate()
            }}
          >
            Reload
          </Button>
        </Group>
      </Notification>
    </div>
  )
}
