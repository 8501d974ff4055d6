import { Stack, Title } from '@mantine/core'
import { usePageTitle } from '../../../lib/page-title'
import { UserAnimationGrid } from '../../../entities/wumpus/user-animation-grid'
import { MyRemixes } from '../../remix/components/my-remixes'
import { WumpusCard } from '../../../entities/wumpus/wumpus-card'

/** Cards in the first row load at once; the rest wait until they scroll near. */
const EAGER_CARDS = 3

/** Dashboard → My animation: the signed-in user's own animations, then their remixes. */
export function MyAnimations({ email }: { email: string }) {
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
      <MyRemixes />
    </Stack>
  )
}
