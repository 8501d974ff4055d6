import { Alert, Anchor, Badge, Stack, Text, Title } from '@mantine/core'
import { useSuspenseInfiniteQuery } from '@tanstack/react-query'
import { FALLBACK_EMOJI } from '../../../../contract/limits'
import type { Wumpus } from '../../../../contract/wumpus'
import { AdminTable, adminTableClasses } from '../../../components/admin-table'
import { ConfirmDeleteModal, DeleteIconButton, useDeleteConfirmation } from '../../../components/confirm-delete'
import { EditIconLink } from '../../../components/edit-icon-link'
import { MorePages } from '../../../components/more-pages'
import { useNeedsNetwork } from '../../../components/needs-network'
import { ButtonLink } from '../../../components/router-links'
import { wumpusListQueryOptions } from '../../../entities/wumpus/api'
import { usePageTitle } from '../../../lib/page-title'
import { profilePath } from '../../../lib/paths'
import { usePagedList } from '../../../lib/use-paged-list'
import { useDeleteWumpus } from '../api'

/** Dashboard → Manage animation (admins): every animation, a page at a time, with edit and delete. */
export function ManageWumpuses() {
  usePageTitle('Manage animation')
  const { items, morePages } = usePagedList(useSuspenseInfiniteQuery(wumpusListQueryOptions()))
  const remove = useDeleteWumpus()
  const network = useNeedsNetwork()
  const { toDelete, askToDelete, confirmDelete } = useDeleteConfirmation((wumpus: Wumpus) => remove.mutateAsync(wumpus._id), {
    deleted: 'Wumpus deleted successfully',
    alreadyGone: 'This animation was already deleted',
    failed: 'Could not delete the animation',
  })

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
        <AdminTable
          label="Animations"
          rows={items}
          rowKey={(wumpus) => wumpus._id}
          numbered
          columns={[
            {
              header: 'Name',
              className: adminTableClasses.name,
              cell: (wumpus) => (
                <>
                  {wumpus.name}
                  {wumpus.emoji.length === 0 && (
                    <Badge color="yellow" variant="light" size="sm" ml={6}>
                      No emoji
                    </Badge>
                  )}
                </>
              ),
            },
            {
              header: 'Uploader',
              className: adminTableClasses.name,
              cell: (wumpus) =>
                wumpus.u_email ? (
                  <Anchor href={profilePath(wumpus.u_email)} size="sm">
                    {wumpus.u_name || wumpus.u_email}
                  </Anchor>
                ) : (
                  wumpus.u_name
                ),
            },
            {
              header: 'Details',
              cell: (wumpus) => (
                <ButtonLink
                  to="/wumpus/$id"
                  params={{ id: wumpus._id }}
                  size="compact-xs"
                  variant="light"
                  aria-label={`Details of ${wumpus.name}`}
                >
                  Details
                </ButtonLink>
              ),
            },
          ]}
          actions={(wumpus) => (
            <>
              <EditIconLink to="/editWumpus/$id" params={{ id: wumpus._id }} name={wumpus.name} className={adminTableClasses.icon} />
              <DeleteIconButton name={wumpus.name} disabled={!network.online} onClick={() => askToDelete(wumpus)} />
            </>
          )}
        />
      )}

      <MorePages {...morePages} />

      <ConfirmDeleteModal
        name={toDelete?.name ?? null}
        consequence="The animation and its GIF, APNG and Lottie files are removed for everyone. This cannot be undone."
        pending={remove.isPending}
        online={network.online}
        onCancel={() => askToDelete(null)}
        onConfirm={() => void confirmDelete()}
      />
    </Stack>
  )
}
