import { Card, Group, Stack, Text, Title } from '@mantine/core'
import type { ReactNode } from 'react'
import type { Pack } from '../../../../contract/pack'
import { ButtonLink } from '../../../components/router-links'
import { StickerPicture } from '../../../entities/wumpus/sticker-picture'
import { stickerCount } from '../pack-text'
import cardClasses from '../../../entities/wumpus/wumpus-card.module.css'
import classes from './packs.module.css'
import { VisibilityBadge } from './visibility-badge'

/**
 * A pack in a list: its cover, name, sticker count and description; a personal pack says who can open
 * it. `actions` go beside Open pack (My packs: edit, delete).
 */
export function PackCard({ pack, eager = false, actions }: { pack: Pack; eager?: boolean; actions?: ReactNode }) {
  const headingId = `pack-${pack.id}-name`
  return (
    <Card component="li" withBorder shadow="sm" padding="md" className={classes.packCard} aria-labelledby={headingId}>
      <Card.Section className={cardClasses.media}>
        {pack.cover ? <StickerPicture wumpus={pack.cover} eager={eager} animateInView /> : <Text c="dimmed">No stickers yet</Text>}
      </Card.Section>
      <Stack gap={6} mt="sm" style={{ flex: 1, minHeight: 0 }}>
        <Title order={2} size="h4" lineClamp={1} id={headingId}>
          {pack.name}
        </Title>
        <Group gap="xs">
          <Text size="sm" fw={500}>
            {stickerCount(pack.wumpusIds.length)}
          </Text>
          <VisibilityBadge visibility={pack.visibility} />
        </Group>
        <Text size="sm" c="dimmed" lineClamp={2}>
          {pack.description}
        </Text>
      </Stack>
      <Group gap="xs" mt="sm" wrap="nowrap">
        <ButtonLink to="/packs/$id" params={{ id: pack.id }} aria-label={`Open pack: ${pack.name}`} style={{ flex: 1 }}>
          Open pack
        </ButtonLink>
        {actions}
      </Group>
    </Card>
  )
}
