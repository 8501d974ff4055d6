import type { MediaInfo } from '../../../contract/media'
import { formatBytes } from '../../lib/format-bytes'

export interface MediaFact {
  label: string
  value: string
}

export function formatDuration(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`
}

/** What the server read from a file's bytes, as short facts for people. */
export function mediaFacts(info: MediaInfo): MediaFact[] {
  return [
    { label: 'Size', value: `${info.width} × ${info.height} px` },
    { label: 'Frames', value: String(info.frames) },
    { label: 'Duration', value: formatDuration(info.durationMs) },
    { label: 'Loop', value: info.loop === 0 ? 'forever' : `${info.loop} ${info.loop === 1 ? 'time' : 'times'}` },
    { label: 'File', value: formatBytes(info.bytes) },
  ]
}
