import { Group, Stack, Table, Text, Title } from '@mantine/core'
import { useSuspenseInfiniteQuery } from '@tanstack/react-query'
import { MorePages } from '../../../components/more-pages'
import { ButtonLink } from '../../../components/router-links'
import { usePageTitle } from '../../../lib/page-title'
import { usePagedList } from '../../../lib/use-paged-list'
import { ActionIconLink } from '../../admin/components/action-icon-link'
import { PencilIcon } from '../../admin/components/admin-icons'
import { ConfirmDeleteModal, DeleteIconButton } from '../../admin/components/confirm-delete'
import adminClasses from '../../admin/components/admin-table.module.css'
import { useNeedsNetwork } from '../../../components/needs-network'
import { packListQueryOptions } from '../api'
import { stickerCount } from '../pack-text'
import { usePackDeletion } from './use-pack-deletion'

/** Dashboard → Packs (admins): every pack with edit and delete, and a way to make a new one. */
export function ManagePacks() {
  usePageTitle('Packs')
  const { items: packs, morePages } = usePagedList(useSuspenseInfiniteQuery(packListQueryOptions()))
  const { toDelete, askToDelete, confirmDelete, deleting } = usePackDeletion()
  const network = useNeedsNetwork()

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
                      <DeleteIconButton name={pack.name} disabled={!network.online} onClick={() => askToDelete(pack)} />
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
        pending={deleting}
        online={network.online}
        onCancel={() => askToDelete(null)}
        onConfirm={() => void confirmDelete()}
      />
    </Stack>
  )
}
