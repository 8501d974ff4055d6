import { Card, Stack, Text, Title } from '@mantine/core'
import type { Wumpus } from '../../../../contract/wumpus'
import { ButtonLink } from '../../../components/router-links'
import { StickerPicture } from '../../../entities/wumpus/sticker-picture'
import { useHoverOrFocus } from '../../../lib/use-hover-or-focus'
import classes from './profile-animation-card.module.css'

/** A card of the public profile grid: the Lottie preview (300 px), name, description and Download. */
export function ProfileAnimationCard({ wumpus }: { wumpus: Wumpus }) {
  const headingId = `profile-wumpus-${wumpus._id}-name`
  const pointedAt = useHoverOrFocus()
  return (
    <Card component="li" withBorder shadow="sm" padding="md" className={classes.card} aria-labelledby={headingId} {...pointedAt.handlers}>
      <Card.Section className={classes.media}>
        <StickerPicture wumpus={wumpus} animateInView active={pointedAt.active} />
      </Card.Section>
      <Stack gap={6} mt="sm" style={{ flex: 1, minHeight: 0 }}>
        <Title order={3} size="h4" lineClamp={1} id={headingId}>
          {wumpus.name}
        </Title>
        <Text size="sm" c="dimmed" lineClamp={3}>
          {wumpus.description}
        </Text>
      </Stack>
      <ButtonLink to="/wumpus/$id" params={{ id: wumpus._id }} fullWidth mt="sm" aria-label={`Download ${wumpus.name}`}>
        Download
      </ButtonLink>
    </Card>
  )
}
