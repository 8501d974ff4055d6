import { Alert } from '@mantine/core'
import type { Wumpus } from '../../../../contract/wumpus'
import { AnchorLink } from '../../../components/router-links'

/** On a hidden sticker's page (only admins get one): that it is hidden, by whom, and where to restore or delete it. */
export function HiddenNote({ wumpus }: { wumpus: Pick<Wumpus, 'hidden'> }) {
  if (!wumpus.hidden) return null
  return (
    <Alert color="orange" variant="light" title="Hidden" role="status">
      Hidden by {wumpus.hidden.by} on {new Date(wumpus.hidden.at).toLocaleDateString()} after reports: only admins see it, in no list,
      search or pack. Restore or delete it on <AnchorLink to="/dashboard/reports">Dashboard → Reports</AnchorLink>.
    </Alert>
  )
}
