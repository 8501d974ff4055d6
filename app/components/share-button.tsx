import { Button, type ButtonProps } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { useState } from 'react'
import { StrokeIcon } from './stroke-icon'
import { canShareNatively, shareOrCopyLink, type ShareData } from '../lib/share'

/**
 * Share a page: the device's share sheet (title, text and link) where there is one, else Copy link with
 * a "Link copied" toast. Closing the share sheet says nothing.
 */
export function ShareButton({ title, text, url, ...props }: ShareData & Omit<ButtonProps, 'children'>) {
  const [busy, setBusy] = useState(false)
  const native = canShareNatively({ title, text, url })

  async function share() {
    setBusy(true)
    try {
      const done = await shareOrCopyLink({ title, text, url })
      if (done === 'copied') notifications.show({ color: 'green', message: 'Link copied' })
    } catch {
      notifications.show({ color: 'red', title: 'Could not copy the link', message: `Copy it from here: ${url}` })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Button variant="light" loading={busy} onClick={() => void share()} leftSection={<ShareIcon />} {...props}>
      {native ? 'Share' : 'Copy link'}
    </Button>
  )
}

function ShareIcon() {
  return (
    <StrokeIcon>
      <circle cx="18" cy="5" r="3" />
      <circle cx="6" cy="12" r="3" />
      <circle cx="18" cy="19" r="3" />
      <path d="m8.6 13.5 6.8 4M15.4 6.5l-6.8 4" />
    </StrokeIcon>
  )
}
