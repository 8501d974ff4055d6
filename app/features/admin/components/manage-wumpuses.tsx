import { Alert, Anchor, Badge, Group, Stack, Table, Text, Title } from '@mantine/core'
import { FALLBACK_EMOJI } from '../../../../contract/limits'
import { errorMessage } from '../../../lib/error-message'
import { notifications } from '@mantine/notifications'
import { useSuspenseInfiniteQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { Wumpus } from '../../../../contract/wumpus'
import { MorePages } from '../../../components/more-pages'
import { ButtonLink } from '../../../components/router-links'
import { usePageTitle } from '../../../lib/page-title'
import { usePagedList } from '../../../lib/use-paged-list'
import { profilePath } from '../../../lib/paths'
import { wumpusListQueryOptions } from '../../../entities/wumpus/api'
import { useNeedsNetwork } from '../../../components/needs-network'
import { useDeleteWumpus } from '../api'
import { ActionIconLink } from './action-icon-link'
import { PencilIcon } from './admin-icons'
import { ConfirmDeleteModal, DeleteIconButton } from './confirm-delete'
import classes from './admin-table.module.css'

/** Dashboard → Manage animation (admins): every animation, a page at a time, with edit and delete. */
export function ManageWumpuses() {
  usePageTitle('Manage animation')
  const { items, morePages } = usePagedList(useSuspenseInfiniteQuery(wumpusListQueryOptions()))
  const remove = useDeleteWumpus()
  const network = useNeedsNetwork()
  const [toDelete, setToDelete] = useState<Wumpus | null>(null)

  async function confirmDelete() {
    if (!toDelete) return
    try {
      const { deletedCount } = await remove.mutateAsync(toDelete._id)
      notifications.show(
        deletedCount > 0
          ? { color: 'green', message: 'Wumpus deleted successfully' }
          : { color: 'yellow', message: 'This animation was already deleted' },
      )
      setToDelete(null)
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not delete the animation', message: errorMessage(error) })
    }
  }

  return (
    <Stack gap="lg">
      <Title order={1}>Manage animation</Title>
      {network.note}
      {items.some((wumpus) => wumpus.emoji.length === 0) && (
        <Alert color="yellow" variant="light" title="Some animations have no emoji">
          <Text size="sm">
            Chat apps want at least one emoji per sticker, and packs fall back to {FALLBACK_EMOJI} without one. Those marked “No emoji”
            below need theirs: edit them to pick some.
          </Text>
        </Alert>
      )}
      {items.length === 0 ? (
        <Text>No animations yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={340}>
          <Table striped highlightOnHover className={classes.table} aria-label="Animations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th className={classes.number}>#</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Uploader</Table.Th>
                <Table.Th>Details</Table.Th>
                <Table.Th>Action</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((wumpus, index) => (
                <Table.Tr key={wumpus._id}>
                  <Table.Td className={classes.number}>{index + 1}</Table.Td>
                  <Table.Td className={classes.name}>
                    {wumpus.name}
                    {wumpus.emoji.length === 0 && (
                      <Badge color="yellow" variant="light" size="sm" ml={6}>
                        No emoji
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td className={classes.name}>
                    <Anchor href={profilePath(wumpus.u_email)} size="sm">
                      {wumpus.u_name || wumpus.u_email}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <ButtonLink
                      to="/wumpus/$id"
                      params={{ id: wumpus._id }}
                      size="compact-xs"
                      variant="light"
                      aria-label={`Details of ${wumpus.name}`}
                    >
                      Details
                    </ButtonLink>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <ActionIconLink
                        to="/editWumpus/$id"
                        params={{ id: wumpus._id }}
                        variant="default"
                        size="lg"
                        className={classes.icon}
                        aria-label={`Edit ${wumpus.name}`}
                        title="Edit"
                      >
                        <PencilIcon />
                      </ActionIconLink>
                      <DeleteIconButton name={wumpus.name} disabled={!network.online} onClick={() => setToDelete(wumpus)} />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      <MorePages {...morePages} />

      <ConfirmDeleteModal
        name={toDelete?.name ?? null}
        consequence="The animation and its GIF, APNG and Lottie files are removed for everyone. This cannot be undone."
        pending={remove.isPending}
        online={network.online}
        onCancel={() => setToDelete(null)}
        onConfirm={() => void confirmDelete()}
      />
    </Stack>
  )
}
