import { Button } from '@mantine/core'
import { useReducedMotion } from '@mantine/hooks'
import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { lottieJsonQueryOptions } from '../api'
import classes from './lottie-preview.module.css'

const LottiePlayer = lazy(() => import('./lottie-player'))

interface LottiePreviewProps {
  lottieUrl: string
  /** Shown while the Lottie loads, and instead of it when it cannot play. */
  gifUrl: string
  name: string
  /** The text alternative of the animation (see lib/sticker-alt.ts). */
  alt: string
}

/**
 * A 300 px Lottie preview. It fetches the animation once it comes near the viewport, pauses while off
 * screen, and under prefers-reduced-motion stays still until asked to play.
 */
export function LottiePreview({ lottieUrl, gifUrl, name, alt }: LottiePreviewProps) {
  const [frameRef, { seen, visible }] = useVisibility<HTMLDivElement>()
  const reducedMotion = useReducedMotion()
  const [playRequested, setPlayRequested] = useState(false)
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading')
  const json = useQuery({ ...lottieJsonQueryOptions(lottieUrl), enabled: seen })

  const failed = status === 'failed' || json.isError
  const ready = status === 'ready' && !failed
  const wantsToPlay = reducedMotion ? playRequested : true

  return (
    <div ref={frameRef} className={classes.frame}>
      {!ready && (
        // The GIF moves too: under reduced motion it only stands in when the Lottie cannot be shown.
        <img
          className={`${classes.layer} ${reducedMotion && !failed ? classes.hidden : ''}`}
          src={gifUrl}
          alt={alt}
          width={300}
          height={300}
          loading="lazy"
          decoding="async"
        />
      )}
      {json.data && !failed && (
        <div className={`${classes.layer} ${ready ? '' : classes.hidden}`}>
          <Suspense fallback={null}>
            <LottiePlayer
              data={json.data}
              playing={visible && wantsToPlay}
              label={alt}
              onReady={() => setStatus('ready')}
              onError={() => setStatus('failed')}
            />
          </Suspense>
        </div>
      )}
      {reducedMotion && ready && (
        <Button
          size="xs"
          variant="default"
          className={classes.toggle}
          onClick={() => setPlayRequested((value) => !value)}
          aria-pressed={playRequested}
          aria-label={`${playRequested ? 'Pause' : 'Play'} ${name}`}
        >
          {playRequested ? 'Pause' : 'Play'}
        </Button>
      )}
    </div>
  )
}

/** Whether the element is near the viewport now, and whether it ever was. */
function useVisibility<T extends Element>(rootMargin = '200px 0px') {
  const ref = useRef<T>(null)
  const [state, setState] = useState({ seen: false, visible: false })

  useEffect(() => {
    const element = ref.current
    if (!element) return
    const observer = new IntersectionObserver(
      (entries) => {
        const visible = entries.some((entry) => entry.isIntersecting)
        setState((previous) => (previous.visible === visible && (previous.seen || !visible) ? previous : { seen: true, visible }))
      },
      { rootMargin },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [rootMargin])

  return [ref, state] as const
}
