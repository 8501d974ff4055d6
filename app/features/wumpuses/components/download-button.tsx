import { Button } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { useState } from 'react'
import { apiGetBlob, isApiError } from '../../../lib/api-client'
import { downloadUrl, fileNameFromUrl, saveBlob } from '../../../lib/download'
import { keepFile } from '../../offline/saved-stickers'

interface DownloadButtonProps {
  url: string
  label: string
  /** What the file is, for screen readers, e.g. "Waving Wumpus as GIF". */
  description: string
}

/** Fetches the file (as a download, which the server counts) and saves it under its original name. */
export function DownloadButton({ url, label, description }: DownloadButtonProps) {
  const [busy, setBusy] = useState(false)

  async function download() {
    setBusy(true)
    try {
      const blob = await apiGetBlob(downloadUrl(url))
      saveBlob(blob, fileNameFromUrl(url))
      // Kept on this device, so the same download works offline (the service worker serves it).
      void keepFile(url, blob)
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
