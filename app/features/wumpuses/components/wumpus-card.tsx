import { Anchor, Badge, Card, Group, Stack, Text, Title } from '@mantine/core'
import type { Wumpus } from '../../../../contract/wumpus'
import { ButtonLink } from '../../../components/router-links'
import { SaveOfflineIconButton } from '../../offline/components/save-offline-button'
import { useSavedStickers } from '../../offline/use-saved-stickers'
import { profilePath } from '../../../lib/paths'
import { useHoverOrFocus } from '../../../lib/use-hover-or-focus'
import { StickerPicture } from './sticker-picture'
import classes from './wumpus-card.module.css'

interface WumpusCardProps {
  wumpus: Wumpus
  /** Cards in the first row load at once; the rest wait until they scroll near. */
  eager?: boolean
}

export function WumpusCard({ wumpus, eager = false }: WumpusCardProps) {
  const headingId = `wumpus-${wumpus._id}-name`
  const saved = useSavedStickers()?.has(wumpus._id) ?? false
  const pointedAt = useHoverOrFocus()
  return (
    <Card component="li" withBorder shadow="sm" padding="md" className={classes.card} aria-labelledby={headingId} {...pointedAt.handlers}>
      <Card.Section className={classes.media} pos="relative">
        <StickerPicture wumpus={wumpus} className={classes.image} eager={eager} animateInView active={pointedAt.active} />
        {saved && (
          <Badge pos="absolute" top={8} left={8}>
            Saved for offline
          </Badge>
        )}
      </Card.Section>
      <Stack gap={6} mt="sm" style={{ flex: 1, minHeight: 0 }}>
        <Title order={2} size="h4" lineClamp={1} id={headingId}>
          {wumpus.name}
        </Title>
        <Text size="sm" c="dimmed" lineClamp={2}>
          {wumpus.description}
        </Text>
        <Anchor href={profilePath(wumpus.u_email)} size="sm" lineClamp={1}>
          by {wumpus.u_name}
        </Anchor>
      </Stack>
      <Group gap="xs" mt="sm" wrap="nowrap">
        <ButtonLink to="/wumpus/$id" params={{ id: wumpus._id }} style={{ flex: 1 }} aria-label={`Download ${wumpus.name}`}>
          Download
        </ButtonLink>
        <SaveOfflineIconButton wumpus={wumpus} />
      </Group>
    </Card>
  )
}
