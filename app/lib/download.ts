/** The original file name of a file URL: its last path segment, decoded. */
export function fileNameFromUrl(url: string): string {
  const path = new URL(url, 'http://base.invalid').pathname
  const last = path.split('/').filter(Boolean).pop() ?? 'download'
  try {
    return decodeURIComponent(last)
  } catch {
    return last
  }
}

/** The URL that fetches a file as a download: the server counts it for the animation (docs/product.md#downloads). */
export function downloadUrl(url: string): string {
  const parsed = new URL(url, 'http://base.invalid')
  parsed.searchParams.set('download', '1')
  return /^https?:\/\//.test(url) ? parsed.href : parsed.pathname + parsed.search
}

/** Saves a Blob on the user's device under the given name, through a temporary <a download>. */
export function saveBlob(blob: Blob, fileName: string): void {
  const objectUrl = URL.createObjectURL(blob)
  const anchor = document.createElement('a')
  anchor.href = objectUrl
  anchor.download = fileName
  anchor.rel = 'noopener'
  anchor.style.display = 'none'
  document.body.append(anchor)
  try {
    anchor.click()
  } finally {
    anchor.remove()
    // Revoke after the click has been handled, or some browsers cancel the download.
    setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000)
  }
}
