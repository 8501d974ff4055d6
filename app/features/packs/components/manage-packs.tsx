import { Group, Stack, Table, Text, Title } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { useSuspenseInfiniteQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { Pack } from '../../../../contract/pack'
import { MorePages } from '../../../components/more-pages'
import { ButtonLink } from '../../../components/router-links'
import { usePageTitle } from '../../../lib/page-title'
import { errorMessage } from '../../../lib/error-message'
import { usePagedList } from '../../../lib/use-paged-list'
import { ActionIconLink } from '../../admin/components/action-icon-link'
import { PencilIcon } from '../../admin/components/admin-icons'
import { ConfirmDeleteModal, DeleteIconButton } from '../../admin/components/confirm-delete'
import adminClasses from '../../admin/components/admin-table.module.css'
import { useNeedsNetwork } from '../../offline/components/needs-network'
import { packListQueryOptions, useDeletePack } from '../api'
import { stickerCount } from '../pack-text'

/** Dashboard → Packs (admins): every pack with edit and delete, and a way to make a new one. */
export function ManagePacks() {
  usePageTitle('Packs')
  const { items: packs, morePages } = usePagedList(useSuspenseInfiniteQuery(packListQueryOptions()))
  const remove = useDeletePack()
  const network = useNeedsNetwork()
  const [toDelete, setToDelete] = useState<Pack | null>(null)

  async function confirmDelete() {
    if (!toDelete) return
    try {
      const { deletedCount } = await remove.mutateAsync(toDelete.id)
      notifications.show(
        deletedCount > 0 ? { color: 'green', message: 'Pack deleted' } : { color: 'yellow', message: 'This pack was already deleted' },
      )
      setToDelete(null)
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not delete the pack', message: errorMessage(error) })
    }
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1}>Packs</Title>
        <ButtonLink to="/dashboard/packs/new">New pack</ButtonLink>
      </Group>
      {network.note}
      {packs.length === 0 ? (
        <Text>No packs yet. Make one from the gallery’s stickers.</Text>
      ) : (
        <Table.ScrollContainer minWidth={340}>
          <Table striped highlightOnHover className={adminClasses.table} aria-label="Packs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Stickers</Table.Th>
                <Table.Th>Action</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {packs.map((pack) => (
                <Table.Tr key={pack.id}>
                  <Table.Td className={adminClasses.name}>
                    <ButtonLink to="/packs/$id" params={{ id: pack.id }} variant="subtle" size="compact-sm">
                      {pack.name}
                    </ButtonLink>
                  </Table.Td>
                  <Table.Td>{stickerCount(pack.wumpusIds.length)}</Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <ActionIconLink
                        to="/dashboard/packs/$id"
                        params={{ id: pack.id }}
                        variant="default"
                        size="lg"
                        className={adminClasses.icon}
                        aria-label={`Edit ${pack.name}`}
                        title="Edit"
                      >
                        <PencilIcon />
                      </ActionIconLink>
                      <DeleteIconButton name={pack.name} disabled={!network.online} onClick={() => setToDelete(pack)} />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <MorePages {...morePages} noun="packs" />
      <ConfirmDeleteModal
        name={toDelete?.name ?? null}
        consequence="The pack is removed for everyone. Its stickers stay in the gallery."
        pending={remove.isPending}
        online={network.online}
        onCancel={() => setToDelete(null)}
        onConfirm={() => void confirmDelete()}
      />
    </Stack>
  )
}
