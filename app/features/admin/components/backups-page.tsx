import { Alert, Button, Group, Stack, Table, Text, Title } from '@mantine/core'
import { showToast } from '../../../lib/toast'
import { useSuspenseQuery } from '@tanstack/react-query'
import type { ApiBackup } from '../../../../contract/backups'
import { useNeedsNetwork } from '../../../components/needs-network'
import { errorMessage } from '../../../lib/error-message'
import { usePageTitle } from '../../../lib/page-title'
import { backupsQueryOptions, useBackUpNow } from '../api'
import classes from '../../../components/admin-table.module.css'

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' })
const size = (bytes: number) => (bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${(bytes / 1e6).toFixed(1)} MB`)

/** Dashboard → Backups (admins): the server's backups, newest first, and a button to make one now. */
export function BackupsPage() {
  usePageTitle('Backups')
  const { data } = useSuspenseQuery(backupsQueryOptions())
  const backUpNow = useBackUpNow()
  const network = useNeedsNetwork()

  async function makeBackup() {
    try {
      const backup = await backUpNow.mutateAsync()
      showToast({ color: 'green', message: `Backed up ${backup.files} files as of ${when.format(new Date(backup.takenAt))}` })
    } catch (error) {
      showToast({ color: 'red', title: 'No backup was made', message: errorMessage(error) })
    }
  }

  return (
    <Stack gap="lg">
      <Title order={1}>Backups</Title>
      <Text c="dimmed" size="sm">
        A backup copies the database and every stored file while the gallery keeps serving. The server also makes them on its own schedule
        and keeps the newest few.
      </Text>
      {'notSetUp' in data ? (
        <Alert color="yellow" title="This server makes no backups">
          {data.notSetUp}
        </Alert>
      ) : (
        <>
          <Group>
            <Button onClick={() => void makeBackup()} loading={backUpNow.isPending} disabled={!network.online}>
              Back up now
            </Button>
          </Group>
          {network.note}
          {data.backups.length === 0 ? <Text>No backups yet.</Text> : <BackupTable backups={data.backups} />}
        </>
      )}
    </Stack>
  )
}

function BackupTable({ backups }: { backups: ApiBackup[] }) {
  return (
    <Table.ScrollContainer minWidth={340}>
      <Table striped className={classes.table} aria-label="Backups">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Taken</Table.Th>
            <Table.Th>Files</Table.Th>
            <Table.Th className={classes.wideOnly}>Database</Table.Th>
            <Table.Th className={classes.wideOnly}>Folder</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {backups.map((backup) => (
            <Table.Tr key={backup.name}>
              <Table.Td>{when.format(new Date(backup.takenAt))}</Table.Td>
              <Table.Td>
                {backup.files} ({size(backup.fileBytes)})
              </Table.Td>
              <Table.Td className={classes.wideOnly}>{size(backup.databaseBytes)}</Table.Td>
              <Table.Td className={classes.wideOnly}>{backup.name}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}
