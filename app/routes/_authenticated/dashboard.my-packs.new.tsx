import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { PACK_ITEMS_MAX } from '../../../contract/limits'
import { newestFavouritesQueryOptions } from '../../entities/favourite/list-query'
import { PackEditor } from '../../features/packs/components/pack-editor'

/** `?from=favourites`: the new pack starts with the user's favourites (Favourites → Make a pack from my favourites). */
interface NewPackSearch {
  from?: 'favourites'
}

export const Route = createFileRoute('/_authenticated/dashboard/my-packs/new')({
  validateSearch: (search: Record<string, unknown>): NewPackSearch => (search.from === 'favourites' ? { from: 'favourites' } : {}),
  loaderDeps: ({ search }) => ({ from: search.from }),
  loader: async ({ context, deps }) => {
    if (deps.from === 'favourites')
      await context.queryClient.ensureQueryData(newestFavouritesQueryOptions(context.user.email, PACK_ITEMS_MAX))
  },
  component: NewMyPackPage,
})

function NewMyPackPage() {
  const { from } = Route.useSearch()
  return from === 'favourites' ? <PackOfFavourites /> : <NewPack />
}

function NewPack({ start }: { start?: Parameters<typeof PackEditor>[0]['start'] }) {
  const { user } = Route.useRouteContext()
  const navigate = Route.useNavigate()
  return <PackEditor owner={user} start={start} onSaved={(pack) => void navigate({ to: '/packs/$id', params: { id: pack.id } })} />
}

function PackOfFavourites() {
  const { user } = Route.useRouteContext()
  const { data: favourites } = useSuspenseQuery(newestFavouritesQueryOptions(user.email, PACK_ITEMS_MAX))
  // A personal pack holds its owner's own remixes only: someone else's shared remix stays a favourite.
  const items = favourites.filter((wumpus) => !wumpus.remixOf || wumpus.u_email === user.email)
  return <NewPack start={{ name: 'My favourites', items }} />
}
