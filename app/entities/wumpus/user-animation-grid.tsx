import { SimpleGrid, Stack, Text, type SimpleGridProps } from '@mantine/core'
import { useSuspenseInfiniteQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import type { Wumpus } from '../../../contract/wumpus'
import { MorePages } from '../../components/more-pages'
import { usePagedList } from '../../lib/use-paged-list'
import { userAnimationsQueryOptions } from './user-animations'

interface UserAnimationGridProps {
  /** Whose animations. */
  email: string
  /** Accessible name of the list. */
  label: string
  cols: SimpleGridProps['cols']
  emptyMessage: string
  renderItem: (wumpus: Wumpus, index: number) => ReactNode
}

/** One user's animations in a grid, loading the next page as the end of the list comes near. Its route loads the first page. */
export function UserAnimationGrid({ email, label, cols, emptyMessage, renderItem }: UserAnimationGridProps) {
  const { items, morePages } = usePagedList(useSuspenseInfiniteQuery(userAnimationsQueryOptions(email)))
  if (items.length === 0) return <Text>{emptyMessage}</Text>

  return (
    <Stack gap="lg">
      <SimpleGrid component="ul" cols={cols} spacing="sm" p={0} m={0} aria-label={label}>
        {items.map(renderItem)}
      </SimpleGrid>
      <MorePages {...morePages} />
    </Stack>
  )
}
