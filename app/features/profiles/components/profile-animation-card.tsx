import { Card, Stack, Text, Title } from '@mantine/core'
import type { Wumpus } from '../../../../contract/wumpus'
import { ButtonLink } from '../../../components/router-links'
import { stickerAlt } from '../../../lib/sticker-alt'
import { LottiePreview } from './lottie-preview'
import classes from './profile-animation-card.module.css'

/** A card of the public profile grid: the Lottie preview, name, description and Download. */
export function ProfileAnimationCard({ wumpus }: { wumpus: Wumpus }) {
  const headingId = `profile-wumpus-${wumpus._id}-name`
  return (
    <Card component="li" withBorder shadow="sm" padding="md" className={classes.card} aria-labelledby={headingId}>
      <Card.Section className={classes.media}>
        <LottiePreview lottieUrl={wumpus.lottie} gifUrl={wumpus.gif} name={wumpus.name} alt={stickerAlt(wumpus)} />
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
