import { Alert, Button, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useSuspenseInfiniteQuery } from '@tanstack/react-query'
import { PERSONAL_PACKS_MAX } from '../../../../contract/limits'
import { MorePages } from '../../../components/more-pages'
import { ButtonLink } from '../../../components/router-links'
import { usePageTitle } from '../../../lib/page-title'
import { usePagedList } from '../../../lib/use-paged-list'
import { EditIconLink } from '../../../components/edit-icon-link'
import { ConfirmDeleteModal, DeleteIconButton } from '../../../components/confirm-delete'
import { useNeedsNetwork } from '../../../components/needs-network'
import { myPackListQueryOptions } from '../api'
import { PackCard } from './pack-card'
import { usePackDeletion } from './use-pack-deletion'
import { VerifyEmailFirst } from '../../../components/verify-email-first'

/** Dashboard → My packs: one's personal packs, most recently edited first, and New pack. */
export function MyPacks({ emailVerified }: { emailVerified: boolean }) {
  usePageTitle('My packs')
  const { items: packs, total, morePages } = usePagedList(useSuspenseInfiniteQuery(myPackListQueryOptions()))
  const { toDelete, askToDelete, confirmDelete, deleting } = usePackDeletion()
  const network = useNeedsNetwork()
  const full = total >= PERSONAL_PACKS_MAX

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1}>My packs</Title>
        {emailVerified && !full && network.online ? (
          <ButtonLink to="/dashboard/my-packs/new">New pack</ButtonLink>
        ) : (
          <Button disabled>New pack</Button>
        )}
      </Group>
      {!emailVerified && <VerifyEmailFirst>Making packs needs a verified email address.</VerifyEmailFirst>}
      {full && (
        <Alert color="yellow" variant="light" title={`You have ${PERSONAL_PACKS_MAX} packs`}>
          That is the most one account keeps. Delete a pack to make a new one.
        </Alert>
      )}
      {network.note}
      {packs.length === 0 ? (
        <Text>No packs yet. Make one from any stickers in the gallery: it stays private until you share its link.</Text>
      ) : (
        <SimpleGrid component="ul" cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" p={0} m={0} aria-label="My packs">
          {packs.map((pack, index) => (
            <PackCard
              key={pack.id}
              pack={pack}
              eager={index < 3}
              actions={
                <>
                  <EditIconLink to="/dashboard/my-packs/$id" params={{ id: pack.id }} name={pack.name} />
                  <DeleteIconButton name={pack.name} disabled={!network.online} onClick={() => askToDelete(pack)} />
                </>
              }
            />
          ))}
        </SimpleGrid>
      )}
      <MorePages {...morePages} noun="packs" />
      <ConfirmDeleteModal
        name={toDelete?.name ?? null}
        consequence="The pack and its link stop working on every device. Its stickers stay in the gallery."
        pending={deleting}
        online={network.online}
        onCancel={() => askToDelete(null)}
        onConfirm={() => void confirmDelete()}
      />
    </Stack>
  )
}
