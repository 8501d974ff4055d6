import { useQuery, useQueryClient } from '@tanstack/react-query'
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react'
import type { Wumpus } from '../../../../contract/wumpus'
import { PlainButton, type PlainButtonProps } from '../../../components/plain-button'
import { StrokeIcon } from '../../../components/stroke-icon'
import { useEarlyAction } from '../../../lib/early-actions'
import { useSession, useSessionStore } from '../../../lib/session-provider'
import { favouriteIdsQueryOptions } from '../api'
import classes from './favourite-button.module.css'
import type { SignInAskProps } from './sign-in-ask'
import { signInHref } from './sign-in-href'

// Only signed-out visitors who tap a heart need it. Its code may not be on this device (offline): the
// sign-in page itself asks then.
const SignInAsk = lazy((): Promise<{ default: (props: SignInAskProps) => ReactNode }> =>
  import('./sign-in-ask').catch(() => ({ default: GoToSignIn })),
)

function GoToSignIn(): ReactNode {
  useEffect(() => window.location.assign(signInHref(window.location.pathname + window.location.search)), [])
  return null
}

const HEART_PATH =
  'M12 20.5s-7.5-4.6-9.3-9.4C1.5 7.7 3.7 4.5 7 4.5c2 0 3.6 1.1 5 3 1.4-1.9 3-3 5-3 3.3 0 5.5 3.2 4.3 6.6-1.8 4.8-9.3 9.4-9.3 9.4z'

interface FavouriteButtonProps {
  wumpus: Wumpus
  /** `icon`: a heart alone (cards); `button`: a heart and the word (the detail page). */
  appearance?: 'icon' | 'button'
  size?: PlainButtonProps['size']
}

/**
 * The heart: favourites the sticker for the signed-in user at once (the write goes through the outbox, so it
 * works offline too); signed out, it asks to sign in and keeps nothing. Tiny on purpose: it is on every
 * gallery card of the home page, whose script budget is nearly spent; everything else loads when needed.
 * A tap before the app ran (server-rendered page, heart off) is replayed once it has: it can only have meant
 * Favourite.
 */
export function FavouriteButton({ wumpus, appearance = 'icon', size }: FavouriteButtonProps) {
  const session = useSession()
  const sessionStore = useSessionStore()
  const queryClient = useQueryClient()
  const email = session.status === 'signed-in' ? session.user.email : ''
  const { data: on = false } = useQuery({
    ...favouriteIdsQueryOptions(email),
    enabled: email !== '',
    select: (ids) => ids.includes(wumpus._id),
  })
  const [asking, setAsking] = useState(false)
  const anchor = useRef<HTMLSpanElement>(null)

  function toggle(next = !on) {
    // Read at the moment of the tap: a replayed early tap runs before the session is on screen.
    const current = sessionStore.getSnapshot()
    if (current.status !== 'signed-in') {
      setAsking(true)
      return
    }
    void import('../favourites-data').then(({ setFavourite }) => setFavourite(queryClient, current.user.email, wumpus, next))
  }
  const earlyAction = `favourite:${wumpus._id}`
  useEarlyAction(earlyAction, () => toggle(true))

  const heart = (
    <StrokeIcon size={18} className={classes.heart}>
      <path d={HEART_PATH} fill={on ? 'currentColor' : 'none'} />
    </StrokeIcon>
  )
  return (
    <span ref={anchor} className={`${classes.anchor} ${on ? classes.on : ''}`}>
      <PlainButton
        shape={appearance === 'icon' ? 'icon' : 'button'}
        variant="default"
        size={size}
        aria-pressed={on}
        aria-label={`Favourite ${wumpus.name}`}
        title={on ? 'Remove from favourites' : 'Favourite'}
        onClick={() => toggle()}
        data-early-action={earlyAction}
        // index.html's early tap script may have set aria-busy on the server-rendered button.
        suppressHydrationWarning
      >
        {appearance === 'icon' ? heart : <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>{heart}Favourite</span>}
      </PlainButton>
      {asking && (
        <Suspense fallback={null}>
          <SignInAsk
            name={wumpus.name}
            onClose={(refocus) => {
              setAsking(false)
              if (refocus) anchor.current?.querySelector('button')?.focus()
            }}
          />
        </Suspense>
      )}
    </span>
  )
}
