import { Button, type ButtonProps } from '@mantine/core'
import { showToast } from '../lib/toast'
import { useState } from 'react'
import { apiGetBlob, isApiError } from '../lib/api-client'
import { clipboardImageTypes, copyImage } from '../lib/share'

interface CopyImageButtonProps extends Omit<ButtonProps, 'children'> {
  /** Same-origin URL of the picture. */
  url: string
  type: 'image/png' | 'image/gif'
  label: string
  /** What is copied, for screen readers and the toast ("Waving Wumpus as a still PNG"). */
  description: string
}

/** Copies a picture to the clipboard, with a toast; renders nothing where the browser cannot copy this type. */
export function CopyImageButton({ url, type, label, description, ...props }: CopyImageButtonProps) {
  const [busy, setBusy] = useState(false)
  if (!clipboardImageTypes().includes(type)) return null

  async function copy() {
    setBusy(true)
    try {
      await copyImage(type, apiGetBlob(url, { headers: { Accept: type } }))
      showToast({ color: 'green', message: `Copied ${description}` })
    } catch (error) {
      const reason = isApiError(error)
        ? error.message
        : error instanceof DOMException && error.name === 'NotAllowedError'
          ? 'The browser did not allow it: click the button again on this page.'
          : error instanceof Error
            ? error.message
            : 'Please try again.'
      showToast({ color: 'red', title: 'Could not copy the image', message: reason })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Button variant="default" loading={busy} onClick={() => void copy()} aria-label={`${label}: copy ${description}`} {...props}>
      {label}
    </Button>
  )
}
