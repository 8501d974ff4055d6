import { useReducedMotion } from '@mantine/hooks'
import { lazy, Suspense, useCallback, useEffect, useState } from 'react'
import { preload } from 'react-dom'
import type { Wumpus } from '../../../contract/wumpus'
import { useAfterInteractive } from '../../lib/after-interactive'
import { stickerAlt } from '../../../contract/sticker-alt'
import { useInView } from '../../lib/use-in-view'
import { useOnline } from '../../lib/use-online'
import { usePageVisible } from '../../lib/use-page-visible'
import type { StickerMotionProps } from './sticker-motion'
import classes from './sticker-picture.module.css'
import { isKeyedUrl } from '../../lib/pwa/personal-caches'

// Without the player's chunk (offline before it was ever loaded) the sticker plays as its WebP.
const StickerMotion = lazy(() => import('./sticker-motion').catch(() => ({ default: PlayerUnavailable })))

function PlayerUnavailable({ onFailed }: StickerMotionProps) {
  useEffect(onFailed, [onFailed])
  return <></>
}

interface StickerPictureProps {
  wumpus: Wumpus
  /** CSS size of the square image (default 300, the card's). */
  size?: number
  /** Classes of the frame (sizes it) and of the image inside; by default a card's (at most 300 px, square). */
  frameClassName?: string
  className?: string
  /** Load at once and with high priority (the first row of cards, the detail page). */
  eager?: boolean
  /** Play only while at least half of it is on screen (cards); otherwise whenever the tab is in front. */
  animateInView?: boolean
  /** Pointed at or focused: it moves even for people who ask for reduced motion. */
  active?: boolean
}

type Motion = 'still' | 'lottie' | 'webp'

/**
 * An animation as people see it in a card or on its page. The server-rendered page shows the still first
 * frame (nothing animated decodes before the page is interactive); then, while on screen, the sticker's
 * Lottie plays over it: 1-3 KB gzip where the animated WebP preview weighs 150-260 KB, and sharp at any
 * density. It pauses off screen and in background tabs; people who ask for reduced motion get the still
 * unless they point at or focus it. Where the Lottie cannot play (an error, a Lottie the light player
 * cannot draw faithfully or cheaply), the animated WebP previews (1x, 2x) play as before; without previews
 * yet, the GIF. Without JavaScript the still stays.
 */
export function StickerPicture({
  wumpus,
  size = 300,
  frameClassName,
  className,
  eager = false,
  animateInView = false,
  active = false,
}: StickerPictureProps) {
  const preview = wumpus.preview
  // The first row's still (what a card shows first) is the page's largest paint: asked for before the scripts.
  if (eager && preview) preload(preview.still, { as: 'image', type: 'image/webp', fetchPriority: 'high' })
  const interactive = useAfterInteractive()
  const reducedMotion = useReducedMotion()
  const pageVisible = usePageVisible()
  const { ref, inView } = useInView<HTMLDivElement>(0.5, animateInView && interactive)
  const onScreen = !animateInView || inView
  const moving = interactive && onScreen && (active || !reducedMotion)

  // The Lottie is asked for the first time the sticker should move, and kept (paused) after that.
  const [wanted, setWanted] = useState(false)
  if (moving && !wanted) setWanted(true)
  const [playerState, setPlayerState] = useState<'loading' | 'ready' | 'failed'>('loading')
  // The animated previews may be missing offline (a saved sticker keeps them only where its Lottie cannot play).
  const [webpFailed, setWebpFailed] = useState(false)
  const motion: Motion = playerState === 'ready' ? 'lottie' : playerState === 'failed' && moving && !webpFailed ? 'webp' : 'still'
  // A still that cannot load (offline, never kept on this device) gives way to a placeholder, not a broken
  // image with its long alt text; back online, it is asked for again.
  const online = useOnline()
  const [stillFailed, setStillFailed] = useState(false)
  const [attempt, setAttempt] = useState(0)
  const [wasOnline, setWasOnline] = useState(online)
  if (online !== wasOnline) {
    setWasOnline(online)
    if (online && stillFailed) {
      setStillFailed(false)
      setAttempt(attempt + 1)
    }
  }
  const missing = stillFailed && motion !== 'lottie'

  const alt = stickerAlt(wumpus)
  const onPlayerReady = useCallback(() => setPlayerState('ready'), [])
  const onPlayerError = useCallback(() => setPlayerState('failed'), [])
  return (
    <div
      ref={ref}
      className={`${classes.frame} ${frameClassName ?? classes.cardFrame}`}
      data-motion={motion}
      data-playing={motion === 'lottie' && moving && pageVisible}
      data-testid="sticker-motion"
    >
      <picture className={motion === 'lottie' || missing ? classes.hidden : undefined}>
        {preview && (
          <source type="image/webp" srcSet={motion === 'webp' ? `${preview.webp} 1x, ${preview.webp2x} 2x` : `${preview.still} 2x`} />
        )}
        <img
          key={attempt}
          className={className ?? classes.cardImage}
          src={wumpus.gif}
          // A private remix's image URL carries its key: never dragged out of the page (into a chat, a new tab).
          draggable={isKeyedUrl(wumpus.gif) ? false : undefined}
          alt={alt}
          width={size}
          height={size}
          loading={eager ? 'eager' : 'lazy'}
          fetchPriority={eager ? 'high' : undefined}
          decoding="async"
          onError={() => (motion === 'webp' ? setWebpFailed(true) : setStillFailed(true))}
        />
      </picture>
      {missing && (
        <div className={classes.missing} role="img" aria-label={alt}>
          <span aria-hidden="true">{online ? 'The picture did not load' : 'Not saved for offline'}</span>
        </div>
      )}
      {wanted && playerState !== 'failed' && (
        <div className={`${classes.player} ${motion === 'lottie' ? '' : classes.hidden}`}>
          <Suspense fallback={null}>
            <StickerMotion
              url={wumpus.lottie}
              playing={moving && pageVisible}
              label={alt}
              onReady={onPlayerReady}
              onFailed={onPlayerError}
            />
          </Suspense>
        </div>
      )}
    </div>
  )
}
