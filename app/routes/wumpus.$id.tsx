import { createFileRoute, redirect } from '@tanstack/react-router'
import type { Wumpus } from '../../contract/wumpus'
import { PageLoader } from '../components/page-loader'
import { RouteError } from '../components/route-error'
import { AnimationNotFound } from '../entities/wumpus/animation-not-found'
import { stickersQueryOptions, wumpusQueryOptions } from '../entities/wumpus/api'
import { MakeItYours, RemixFacts } from '../features/remix/components/remix-on-detail'
import { HiddenNote } from '../features/reports/components/hidden-note'
import { ReportButton } from '../features/reports/components/report-button'
import { WumpusDetail } from '../features/wumpuses/components/wumpus-detail'
import { loadById } from '../lib/load-by-id'
import type { SessionStore } from '../lib/session'

/**
 * Whether this device's user may open the page (docs/pages.md#pages): signed in, anyone; signed out, a
 * shared remix (the server answers a private one only to its owner and admins) or a sticker saved on
 * this device for offline, whose files are here already.
 */
async function mayOpen(session: SessionStore, wumpus: Wumpus): Promise<boolean> {
  const known = session.getSnapshot()
  if ((known.status === 'loading' ? await session.ready() : known).status === 'signed-in') return true
  if (wumpus.remixOf !== undefined) return true
  const { isSavedForOffline } = await import('../lib/local-data/saved-stickers')
  return isSavedForOffline(wumpus._id)
}

export const Route = createFileRoute('/wumpus/$id')({
  loader: ({ context, params, location }) =>
    loadById(params.id, async () => {
      // The chat app files load beside the page (their section shows its own state).
      void context.queryClient.prefetchQuery(stickersQueryOptions(params.id))
      const wumpus = await context.queryClient.ensureQueryData(wumpusQueryOptions(params.id))
      if (!(await mayOpen(context.session, wumpus))) throw redirect({ to: '/signIn', search: { from: location.href } })
    }),
  pendingComponent: PageLoader,
  errorComponent: RouteError,
  notFoundComponent: () => <AnimationNotFound />,
  component: WumpusDetailPage,
})

function WumpusDetailPage() {
  const { id } = Route.useParams()
  return (
    <WumpusDetail
      id={id}
      underName={(wumpus) => (
        <>
          <HiddenNote wumpus={wumpus} />
          <RemixFacts wumpus={wumpus} />
        </>
      )}
      afterDownloads={(wumpus) => <MakeItYours wumpus={wumpus} />}
      // A gallery sticker or a remix shared by link (anyone with the link opens it); a private remix is its maker's alone,
      // a hidden one the admins' (who decide its reports on Dashboard → Reports).
      atEnd={(wumpus) =>
        (!wumpus.remixOf || wumpus.visibility === 'link') &&
        !wumpus.hidden && <ReportButton target={{ wumpusId: wumpus._id }} name={wumpus.name} />
      }
    />
  )
}
