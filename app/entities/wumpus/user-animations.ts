import { infiniteQueryOptions } from '@tanstack/react-query'
import { userAnimationsPath } from '../../../contract/api-paths'
import type { Wumpus } from '../../../contract/wumpus'
import { trusted } from '../../lib/api-client'
import { fetchPage, retryOfflineCopies } from '../../lib/paging'
import { profileKeys } from '../../lib/query-keys'

/**
 * Animations uploaded by one user (GET /api/wumpus?u_email=), paged like the home gallery: a profile's grid and
 * My animation. Apart from api.ts, which is part of every page's first load.
 */
export const userAnimationsQueryOptions = (email: string) =>
  infiniteQueryOptions({
    queryKey: profileKeys.animations(email),
    queryFn: ({ pageParam, signal }) => fetchPage(userAnimationsPath(email, { cursor: pageParam }), trusted<Wumpus[]>(), signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
    refetchInterval: retryOfflineCopies,
  })
