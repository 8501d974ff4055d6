import { LottieLight, type LottieHandle } from 'lottie-react'
import { useEffect, useRef, useState } from 'react'

export interface LottiePlayerProps {
  /** The parsed Lottie JSON. */
  data: object
  /** Plays while true, pauses otherwise (off screen, a background tab, or reduced motion until asked). */
  playing: boolean
  label: string
  onReady: () => void
  onError: () => void
}

// Default export for React.lazy: lottie-web's light build (SVG only, no expression engine: 47 KB gzip, no
// eval) is only fetched once a page plays a Lottie, after it is interactive.
export default function LottiePlayer({ data, playing, label, onReady, onError }: LottiePlayerProps) {
  const handle = useRef<LottieHandle>(null)
  const [ready, setReady] = useState(false)

  useEffect(() => {
    if (!ready) return
    if (playing) handle.current?.play()
    else handle.current?.pause()
  }, [playing, ready])

  return (
    <LottieLight
      src={data}
      autoplay={false}
      loop
      lottieRef={handle}
      role="img"
      aria-label={label}
      style={{ width: '100%', height: '100%' }}
      subscriptions={{
        ready: () => {
          setReady(true)
          onReady()
        },
        error: onError,
      }}
    />
  )
}
