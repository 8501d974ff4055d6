import { LottieSvg, type LottieHandle } from 'lottie-react'
import { useEffect, useRef, useState } from 'react'

export interface LottiePlayerProps {
  /** The parsed Lottie JSON. */
  data: object
  /** Plays while true, pauses otherwise (off screen, or reduced motion until asked). */
  playing: boolean
  label: string
  onReady: () => void
  onError: () => void
}

// Default export for React.lazy: lottie-web (the svg build) is only fetched by pages that show one.
export default function LottiePlayer({ data, playing, label, onReady, onError }: LottiePlayerProps) {
  const handle = useRef<LottieHandle>(null)
  const [ready, setReady] = useState(false)

  useEffect(() => {
    if (!ready) return
    if (playing) handle.current?.play()
    else handle.current?.pause()
  }, [playing, ready])

  return (
    <LottieSvg
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
