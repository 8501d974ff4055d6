import { Group, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useSuspenseQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import type { PackDetail } from '../../../../contract/pack'
import { AnchorLink, ButtonLink } from '../../../components/router-links'
import { usePageTitle } from '../../../lib/page-title'
import { useSession } from '../../../lib/session-provider'
import { SavePackOfflineButton } from '../../../entities/saved-copy/save-pack-offline-button'
import { ShareButton } from '../../../components/share-button'
import { WumpusCard } from '../../../entities/wumpus/wumpus-card'
import { packQueryOptions } from '../api'
import { stickerCount } from '../pack-text'
import { PackDownloads } from './pack-downloads'
import { PackImports } from './pack-imports'
import { PackTelegram } from './pack-telegram'
import { PackTelegramOwn } from './pack-telegram-own'
import { PackDiscord } from './pack-discord'
import { VisibilityBadge } from './visibility-badge'

/** /packs/{id}: the pack's stickers in order, and one download per chat app; `atEnd` is its route's (Report a problem). */
export function PackPage({ id, atEnd }: { id: string; atEnd?: (pack: PackDetail, mine: boolean) => ReactNode }) {
  const { data: pack } = useSuspenseQuery(packQueryOptions(id))
  usePageTitle(pack.name)
  const session = useSession()
  const personal = pack.visibility !== 'public'
  // createdBy names a personal pack's owner to the owner (and admins) only.
  const mine = personal && session.status === 'signed-in' && pack.createdBy === session.user.email
  return (
    <Stack gap="lg">
      {mine ? (
        <AnchorLink to="/dashboard/my-packs" size="sm">
          ← My packs
        </AnchorLink>
      ) : (
        !personal && (
          <AnchorLink to="/packs" size="sm">
            ← All packs
          </AnchorLink>
        )
      )}
      <Group justify="space-between" align="flex-start" gap="md">
        <Stack gap={4} style={{ flex: '1 1 320px', minWidth: 0 }}>
          <Title order={1}>{pack.name}</Title>
          {pack.description && <Text>{pack.description}</Text>}
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {stickerCount(pack.items.length)}
            </Text>
            {mine && <VisibilityBadge visibility={pack.visibility} />}
          </Group>
        </Stack>
        <Group gap="xs">
          {mine && (
            <ButtonLink to="/dashboard/my-packs/$id" params={{ id: pack.id }} variant="default">
              Edit
            </ButtonLink>
          )}
          {pack.visibility !== 'private' && (
            <ShareButton title={pack.name} text={pack.description || stickerCount(pack.items.length)} url={`/packs/${pack.id}`} />
          )}
          <SavePackOfflineButton pack={pack} />
        </Group>
      </Group>
      {!personal && <PackTelegram packId={pack.id} telegram={pack.telegram} />}
      {mine && <PackTelegramOwn packId={pack.id} telegram={pack.telegram} />}
      <PackDiscord packId={pack.id} />
      <PackDownloads packName={pack.name} downloads={pack.downloads} />
      <PackImports packName={pack.name} imports={pack.imports ?? []} />
      <section aria-labelledby="pack-stickers-heading">
        <Text component="h2" fw={700} size="lg" id="pack-stickers-heading" mb="xs">
          Stickers in this pack
        </Text>
        {pack.items.length === 0 ? (
          <Text c="dimmed">This pack has no stickers: they were all removed from the gallery.</Text>
        ) : (
          <SimpleGrid component="ul" cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm" p={0} m={0} aria-label={`Stickers in ${pack.name}`}>
            {pack.items.map((wumpus, index) => (
              <WumpusCard key={wumpus._id} wumpus={wumpus} eager={index === 0} />
            ))}
          </SimpleGrid>
        )}
      </section>
      {atEnd?.(pack, mine)}
    </Stack>
  )
}
