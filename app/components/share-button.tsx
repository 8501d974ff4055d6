import { Button, type ButtonProps } from '@mantine/core'
import { showToast } from '../lib/toast'
import { useState, useSyncExternalStore } from 'react'
import { StrokeIcon } from './stroke-icon'
import { useEarlyAction } from '../lib/early-actions'
import { canShareNatively, shareOrCopyLink, type ShareData } from '../lib/share'

const noSubscription = () => () => {}

/**
 * Share a page: the device's share sheet (title, text and link) where there is one, else Copy link with
 * a "Link copied" toast. Closing the share sheet says nothing. `url` may be a path from the site's root
 * (server-rendered pages know no origin): it is made absolute against the page's own.
 */
export function ShareButton({ title, text, url: given, ...props }: ShareData & Omit<ButtonProps, 'children'>) {
  const [busy, setBusy] = useState(false)
  const absolute = () => new URL(given, window.location.href).href
  // A server-rendered page (and so the first render in the browser, which hydrates it) says Copy link: the
  // server cannot tell whether the device has a share sheet.
  const native = useSyncExternalStore(
    noSubscription,
    () => canShareNatively({ title, text, url: absolute() }),
    () => false,
  )

  async function share() {
    setBusy(true)
    const url = absolute()
    try {
      const done = await shareOrCopyLink({ title, text, url })
      if (done === 'copied') showToast({ color: 'green', message: 'Link copied' })
    } catch {
      showToast({ color: 'red', title: 'Could not copy the link', message: `Copy it from here: ${url}` })
    } finally {
      setBusy(false)
    }
  }

  // A tap on the server-rendered page before the app ran is replayed once it has (one Share button a page).
  useEarlyAction('share', () => void share())

  return (
    <Button
      variant="light"
      loading={busy}
      onClick={() => void share()}
      leftSection={<ShareIcon />}
      data-early-action="share"
      // index.html's early tap script may have set aria-busy on the server-rendered button.
      suppressHydrationWarning
      {...props}
    >
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
