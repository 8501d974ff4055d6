import { Button } from '@mantine/core'
import { showToast } from '../../../lib/toast'

/** The link of a pack shared by link: to the clipboard, with a "Link copied" toast (the address itself when that fails). */
export function CopyPackLinkButton({ id }: { id: string }) {
  const url = new URL(`/packs/${id}`, window.location.origin).href
  async function copy() {
    try {
      await navigator.clipboard.writeText(url)
      showToast({ color: 'green', message: 'Link copied' })
    } catch {
      showToast({ color: 'red', title: 'Could not copy the link', message: `Copy it from here: ${url}` })
    }
  }
  return (
    <Button variant="light" onClick={() => void copy()}>
      Copy link
    </Button>
  )
}
