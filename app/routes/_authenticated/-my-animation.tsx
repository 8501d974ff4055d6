// My animation, at /dashboard and at /dashboard/own (the spec has both): one loader and one page for the two
// routes. The page places the user's remixes after their animations.
import type { QueryClient } from '@tanstack/react-query'
import { useRouteContext } from '@tanstack/react-router'
import { userAnimationsQueryOptions } from '../../entities/wumpus/user-animations'
import { MyAnimations } from '../../features/dashboard/components/my-animations'
import { myRemixesQueryOptions } from '../../features/remix/api'
import { MyRemixes } from '../../features/remix/components/my-remixes'

export function loadMyAnimation({ context }: { context: { queryClient: QueryClient; user: { email: string } } }) {
  return Promise.all([
    context.queryClient.ensureInfiniteQueryData(userAnimationsQueryOptions(context.user.email)),
    context.queryClient.ensureInfiniteQueryData(myRemixesQueryOptions()),
  ])
}

export function MyAnimationPage() {
  const { user } = useRouteContext({ from: '/_authenticated' })
  return (
    <MyAnimations email={user.email}>
      <MyRemixes />
    </MyAnimations>
  )
}
