import { notifications } from '@mantine/notifications'
import { useState } from 'react'
import { errorMessage } from '../../lib/error-message'
import { apiGetBlob } from '../../lib/api-client'
import { downloadUrl, fileNameFromUrl, saveBlob } from '../../lib/download'
import { keepDownload } from '../../lib/local-data/kept-downloads'

/**
 * Fetches a file as a download (which the server counts). It is kept on this device while there is room, so
 * the same file works offline (the service worker serves it).
 */
export async function fetchAsDownload(url: string): Promise<Blob> {
  const blob = await apiGetBlob(downloadUrl(url))
  void keepDownload(url, blob)
  return blob
}

/**
 * Fetches a file as a download (which the server counts) and saves it under its name (by default the URL's
 * last segment), with a toast on failure.
 */
export function useFileDownload() {
  const [busy, setBusy] = useState(false)

  async function download(url: string, fileName = fileNameFromUrl(url)) {
    setBusy(true)
    try {
      saveBlob(await fetchAsDownload(url), fileName)
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Download failed',
        message: errorMessage(error, 'Please try again.'),
      })
    } finally {
      setBusy(false)
    }
  }

  return { busy, download }
}
