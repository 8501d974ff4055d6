import { useQuery, useQueryClient } from '@tanstack/react-query'
import { lazy, Suspense, useState, type ReactNode } from 'react'
import type { Wumpus } from '../../../contract/wumpus'
import { PlainButton, type PlainButtonProps } from '../../components/plain-button'
import { StrokeIcon } from '../../components/stroke-icon'
import { useEarlyAction } from '../../lib/early-actions'
import { useSession, useSessionStore } from '../../lib/session-provider'
import { favouriteIdsQueryOptions, favouritesOnDemand } from './api'
import classes from './favourite-button.module.css'

// Only signed-out visitors who tap a heart need it.
const SignInAsk = lazy(() => favouritesOnDemand().then(({ SignInAsk }) => ({ default: SignInAsk })))

const HEART_PATH = 'M12 20 4 12a4.5 4.5 0 0 1 8-6 4.5 4.5 0 0 1 8 6z'

interface FavouriteButtonProps {
  wumpus: Wumpus
  size?: PlainButtonProps['size']
  /** A word beside the heart (the detail page); cards show the heart alone. */
  children?: ReactNode
}

/**
 * The heart: favourites the sticker for the signed-in user at once (the write goes through the outbox, so it
 * works offline too); signed out, it asks to sign in and keeps nothing. Tiny on purpose: it is on every
 * gallery card of the home page, whose script budget is nearly spent; everything else loads when needed.
 * A tap before the app ran (server-rendered page, heart off) is replayed once it has: it can only have meant
 * Favourite.
 */
export function FavouriteButton({ wumpus, size, children }: FavouriteButtonProps) {
  const session = useSession()
  const sessionStore = useSessionStore()
  const queryClient = useQueryClient()
  const email = session.status === 'signed-in' ? session.user.email : ''
  const { data: on = false } = useQuery({
    ...favouriteIdsQueryOptions(email),
    enabled: !!email,
    select: (ids) => ids.includes(wumpus._id),
  })
  const [asking, setAsking] = useState(false)

  function toggle(next = !on) {
    // Read at the moment of the tap: a replayed early tap runs before the session is on screen.
    const current = sessionStore.getSnapshot()
    if (current.status !== 'signed-in') {
      setAsking(true)
      return
    }
    void favouritesOnDemand().then(({ setFavourite }) => setFavourite(queryClient, current.user.email, wumpus, next))
  }
  const earlyAction = `favourite:${wumpus._id}`
  useEarlyAction(earlyAction, () => toggle(true))

  return (
    <span className={classes.anchor}>
      <PlainButton
        shape={children ? 'button' : 'icon'}
        variant="default"
        size={size}
        aria-pressed={on}
        aria-label={`Favourite ${wumpus.name}`}
        onClick={() => toggle()}
        data-early-action={earlyAction}
        // index.html's early tap script may have set aria-busy on the server-rendered button.
        suppressHydrationWarning
      >
        <StrokeIcon size={18}>
          <path d={HEART_PATH} />
        </StrokeIcon>
        {children}
      </PlainButton>
      {asking && (
        <Suspense fallback={null}>
          <SignInAsk name={wumpus.name} onClose={() => setAsking(false)} />
        </Suspense>
      )}
    </span>
  )
}
