import { Button } from '@mantine/core'
import { useFileDownload } from '../../../entities/wumpus/use-file-download'

interface DownloadButtonProps {
  url: string
  label: string
  /** What the file is, for screen readers, e.g. "Waving Wumpus as GIF". */
  description: string
}

/** Fetches the file (as a download, which the server counts) and saves it under its original name. */
export function DownloadButton({ url, label, description }: DownloadButtonProps) {
  const { busy, download } = useFileDownload()
  return (
    <Button onClick={() => void download(url)} loading={busy} aria-label={`${label}: download ${description}`}>
      {label}
    </Button>
  )
}
