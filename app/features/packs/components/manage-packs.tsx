import { Group, Stack, Text, Title } from '@mantine/core'
import { useSuspenseInfiniteQuery } from '@tanstack/react-query'
import { MorePages } from '../../../components/more-pages'
import { ButtonLink } from '../../../components/router-links'
import { usePageTitle } from '../../../lib/page-title'
import { usePagedList } from '../../../lib/use-paged-list'
import { AdminTable, adminTableClasses } from '../../../components/admin-table'
import { EditIconLink } from '../../../components/edit-icon-link'
import { ConfirmDeleteModal, DeleteIconButton } from '../../../components/confirm-delete'
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
        <AdminTable
          label="Packs"
          rows={packs}
          rowKey={(pack) => pack.id}
          columns={[
            {
              header: 'Name',
              className: adminTableClasses.name,
              cell: (pack) => (
                <ButtonLink to="/packs/$id" params={{ id: pack.id }} variant="subtle" size="compact-sm">
                  {pack.name}
                </ButtonLink>
              ),
            },
            { header: 'Stickers', cell: (pack) => stickerCount(pack.wumpusIds.length) },
          ]}
          actions={(pack) => (
            <>
              <EditIconLink to="/dashboard/packs/$id" params={{ id: pack.id }} name={pack.name} className={adminTableClasses.icon} />
              <DeleteIconButton name={pack.name} disabled={!network.online} onClick={() => askToDelete(pack)} />
            </>
          )}
        />
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
