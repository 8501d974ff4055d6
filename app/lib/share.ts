// Sharing a page and copying pictures, with what the browser offers: the device's share sheet where it
// has one, else the link on the clipboard; images on the clipboard only in the types the browser takes.

export interface ShareData {
  title: string
  text: string
  /** URL of the page (absolute; ShareButton also takes one from the site's root). */
  url: string
}

/** Whether the device has a share sheet for these (Web Share API). */
export function canShareNatively(data: ShareData): boolean {
  if (typeof navigator === 'undefined' || typeof navigator.share !== 'function') return false
  return typeof navigator.canShare !== 'function' || navigator.canShare(data)
}

/**
 * Opens the share sheet, or (without one, or when it fails) copies the link. Answers what happened;
 * 'cancelled' when the person closed the sheet (nothing to say), and throws when the link could not be copied.
 */
export async function shareOrCopyLink(data: ShareData): Promise<'shared' | 'cancelled' | 'copied'> {
  if (canShareNatively(data)) {
    try {
      await navigator.share(data)
      return 'shared'
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled'
      // Refused (e.g. no user activation left): copying still works.
    }
  }
  await navigator.clipboard.writeText(data.url)
  return 'copied'
}

/** Whether the device's share sheet takes these files (Android Chrome, iOS Safari: a chat app gets the file itself). */
export function canShareFiles(files: File[]): boolean {
  if (typeof navigator === 'undefined' || typeof navigator.share !== 'function' || typeof navigator.canShare !== 'function') return false
  return navigator.canShare({ files })
}

/** Image types the clipboard takes here: every browser with async clipboard images takes PNG; GIF only where it says so. */
export function clipboardImageTypes(): Array<'image/png' | 'image/gif'> {
  if (typeof ClipboardItem === 'undefined' || typeof navigator === 'undefined' || typeof navigator.clipboard?.write !== 'function')
    return []
  const supports = (type: string) => (typeof ClipboardItem.supports === 'function' ? ClipboardItem.supports(type) : type === 'image/png')
  return (['image/png', 'image/gif'] as const).filter((type) => supports(type))
}

/**
 * Puts an image on the clipboard. The blob comes as a promise so the write starts within the click
 * (Safari refuses a write after an await); a blob of another type than asked is refused.
 */
export async function copyImage(type: 'image/png' | 'image/gif', blob: Promise<Blob>): Promise<void> {
  const typed = blob.then((b) => {
    if (b.type !== type) throw new Error(`The file is ${b.type || 'of no known type'}, not ${type}`)
    return b
  })
  await navigator.clipboard.write([new ClipboardItem({ [type]: typed })])
}
