import { Card, Stack, Text, Title } from '@mantine/core'
import type { Pack } from '../../../../contract/pack'
import { ButtonLink } from '../../../components/router-links'
import { StickerPicture } from '../../../components/sticker-picture'
import { stickerCount } from '../pack-text'
import cardClasses from '../../wumpuses/components/wumpus-card.module.css'
import classes from './packs.module.css'

/** A pack in the list: its cover, name, sticker count and description. */
export function PackCard({ pack, eager = false }: { pack: Pack; eager?: boolean }) {
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
        <Text size="sm" fw={500}>
          {stickerCount(pack.wumpusIds.length)}
        </Text>
        <Text size="sm" c="dimmed" lineClamp={2}>
          {pack.description}
        </Text>
      </Stack>
      <ButtonLink to="/packs/$id" params={{ id: pack.id }} mt="sm" aria-label={`Open ${pack.name}`}>
        Open pack
      </ButtonLink>
    </Card>
  )
}
