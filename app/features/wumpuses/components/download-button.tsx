import { Button } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { useState } from 'react'
import { apiGetBlob, isApiError } from '../../../lib/api-client'
import { fileNameFromUrl, saveBlob } from '../../../lib/download'

interface DownloadButtonProps {
  url: string
  label: string
  /** What the file is, for screen readers, e.g. "Waving Wumpus as GIF". */
  description: string
}

/** Fetches the file and saves it under its original name. */
export function DownloadButton({ url, label, description }: DownloadButtonProps) {
  const [busy, setBusy] = useState(false)

  async function download() {
    setBusy(true)
    try {
      saveBlob(await apiGetBlob(url), fileNameFromUrl(url))
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Download failed',
        message: isApiError(error) ? error.message : 'Please try again.',
      })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Button onClick={download} loading={busy} aria-label={`${label}: download ${description}`}>
      {label}
    </Button>
  )
}
