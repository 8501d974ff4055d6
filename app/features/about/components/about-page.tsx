import { Stack, Text, Title } from '@mantine/core'
import { usePageTitle } from '../../../lib/page-title'

export function AboutPage() {
  usePageTitle('About')
  return (
    <Stack maw={720} gap="xl">
      <Title order={1}>About Wumpus Gallery</Title>

      <section aria-labelledby="about-what">
        <Title order={2} id="about-what" mb="sm">
          What is a wumpus?
        </Title>
        <Stack gap="sm">
          <Text>
            A wumpus, in this gallery, is a small round mascot with big eyes, two pointy ears and a lot of feelings. Each one is an animated
            sticker: it waves hello, bounces with joy, blinks in surprise or spins when the news is too good to sit still.
          </Text>
          <Text>
            People drop them into chat when a word is not enough. They are friendly, harmless and entirely unlike the creature they are
            named after.
          </Text>
        </Stack>
      </section>

      <section aria-labelledby="about-game">
        <Title order={2} id="about-game" mb="sm">
          Hunt the Wumpus
        </Title>
        <Stack gap="sm">
          <Text>
            The name comes from Hunt the Wumpus, a text game Gregory Yob wrote and published in 1973, one of the first computer games with a
            world to explore. You wander a cave of twenty rooms, each joined by tunnels to three others, while the wumpus sleeps somewhere
            in the dark.
          </Text>
          <Text>
            The cave fights back. Bottomless pits swallow careless steps, giant bats snatch you away to a random room, and you carry only a
            handful of crooked arrows. Clues arrive as warnings: a draft means a pit is near, rustling means bats, and a terrible smell
            means the wumpus is one room away. Shoot into the right room and you win; wake the beast and it eats you.
          </Text>
        </Stack>
      </section>

      <section aria-labelledby="about-why">
        <Title order={2} id="about-why" mb="sm">
          Why this site exists
        </Title>
        <Stack gap="sm">
          <Text>
            A good sticker is easy to love and hard to find in the format you need. Here every animation comes in three: GIF, which plays
            anywhere; APNG, an animated PNG with smooth full-colour transparency; and Lottie JSON, tiny vector animation that stays sharp at
            any size in apps and on the web.
          </Text>
          <Text>
            Browse the gallery, open an animation, download the format that fits. Contributors get a profile page that shows their work, so
            credit goes where it belongs.
          </Text>
        </Stack>
      </section>
    </Stack>
  )
}
