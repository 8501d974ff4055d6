import { showToast } from '../../lib/toast'
import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { DOWNLOAD_COUNTED_HEADER } from '../../../contract/api-paths'
import type { Wumpus } from '../../../contract/wumpus'
import { errorMessage } from '../../lib/error-message'
import { apiGetBlobWithHeaders } from '../../lib/api-client'
import { downloadUrl, fileNameFromUrl, saveBlob } from '../../lib/download'
import { keepDownload } from '../../lib/local-data/kept-downloads'
import { wumpusKeys } from './api'

/**
 * Fetches a file as a download (which the server counts). It is kept on this device while there is room, so
 * the same file works offline (the service worker serves it). A download that counted (once per person and
 * animation a day) is added at once to the count its animation's page shows.
 */
export async function fetchAsDownload(url: string, queryClient?: QueryClient): Promise<Blob> {
  const { blob, headers } = await apiGetBlobWithHeaders(downloadUrl(url))
  void keepDownload(url, blob)
  const counted = headers.get(DOWNLOAD_COUNTED_HEADER)
  if (counted && queryClient) {
    queryClient.setQueryData<Wumpus>(wumpusKeys.detail(counted), (wumpus) =>
      wumpus ? { ...wumpus, downloads: (wumpus.downloads ?? 0) + 1 } : wumpus,
    )
  }
  return blob
}

/**
 * Fetches a file as a download (which the server counts) and saves it under its name (by default the URL's
 * last segment), with a toast on failure.
 */
export function useFileDownload() {
  const [busy, setBusy] = useState(false)
  const queryClient = useQueryClient()

  async function download(url: string, fileName = fileNameFromUrl(url)) {
    setBusy(true)
    try {
      saveBlob(await fetchAsDownload(url, queryClient), fileName)
    } catch (error) {
      showToast({
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
