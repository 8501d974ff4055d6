import { Stack, Title } from '@mantine/core'
import type { ReactNode } from 'react'
import { UserAnimationGrid } from '../../../entities/wumpus/user-animation-grid'
import { WumpusCard } from '../../../entities/wumpus/wumpus-card'
import { usePageTitle } from '../../../lib/page-title'

/** Cards in the first row load at once; the rest wait until they scroll near. */
const EAGER_CARDS = 3

/** Dashboard → My animation: the signed-in user's own animations, then what its route places after them (their remixes). */
export function MyAnimations({ email, children }: { email: string; children?: ReactNode }) {
  usePageTitle('My animation')
  return (
    <Stack gap="lg">
      <Title order={1}>My animation</Title>
      <UserAnimationGrid
        email={email}
        label="My animations"
        cols={{ base: 1, sm: 2, lg: 3 }}
        emptyMessage="Looks like you don't have any animation"
        renderItem={(wumpus, index) => <WumpusCard key={wumpus._id} wumpus={wumpus} eager={index < EAGER_CARDS} />}
      />
      {children}
    </Stack>
  )
}
