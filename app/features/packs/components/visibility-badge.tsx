import { Badge } from '@mantine/core'
import type { PackVisibility } from '../../../../contract/pack'

/** "Private" or "Shared by link" for a personal pack; nothing for the public, curated ones. */
export function VisibilityBadge({ visibility }: { visibility: PackVisibility }) {
  if (visibility === 'public') return null
  return (
    <Badge variant="light" color={visibility === 'link' ? 'teal' : 'gray'} size="sm">
      {visibility === 'link' ? 'Shared by link' : 'Private'}
    </Badge>
  )
}
