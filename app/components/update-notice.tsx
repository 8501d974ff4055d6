import { Button, Group, Notification, Text } from '@mantine/core'
import { useState } from 'react'
import classes from './update-notice.module.css'

interface UpdateNoticeProps {
  applyUpdate: () => void
  onDismiss: () => void
}

/** The "Update available" card: Reload activates the waiting version, Later (the close button) hides it. */
export default function UpdateNotice({ applyUpdate, onDismiss }: UpdateNoticeProps) {
  const [reloading, setReloading] = useState(false)
  return (
    <div className={classes.dock}>
      <Notification
        title="Update available"
        withBorder
        className={classes.prompt}
        closeButtonProps={{ 'aria-label': 'Later' }}
        onClose={onDismiss}
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
