import lottie, { type AnimationItem } from 'lottie-web/build/player/lottie_light'
import { useEffect, useRef } from 'react'

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
  const container = useRef<HTMLDivElement>(null)
  const animation = useRef<AnimationItem | null>(null)
  const playingNow = useRef(playing)
  playingNow.current = playing
  const callbacks = useRef({ onReady, onError })
  callbacks.current = { onReady, onError }

  useEffect(() => {
    const element = container.current
    if (!element) return
    let item: AnimationItem
    try {
      // lottie-web writes into the data it is given: a copy keeps the cached answer as the server sent it.
      item = lottie.loadAnimation({
        container: element,
        renderer: 'svg',
        loop: true,
        autoplay: false,
        animationData: structuredClone(data),
      })
    } catch {
      callbacks.current.onError()
      return
    }
    // Draws the animation's own frames only (30 a second for ours), not one per screen refresh between
    // them: half the main-thread work at the same look (bench:players).
    item.setSubframe(false)
    item.addEventListener('DOMLoaded', () => {
      animation.current = item
      if (playingNow.current) item.play()
      callbacks.current.onReady()
    })
    item.addEventListener('error', () => callbacks.current.onError())
    item.addEventListener('data_failed', () => callbacks.current.onError())
    return () => {
      animation.current = null
      item.destroy()
    }
  }, [data])

  useEffect(() => {
    if (playing) animation.current?.play()
    else animation.current?.pause()
  }, [playing])

  return <div ref={container} role="img" aria-label={label} style={{ width: '100%', height: '100%' }} />
}
