import lottie, { type AnimationItem } from 'lottie-web/build/player/lottie_light'
import { useEffect, useRef, useState } from 'react'
import { whenIdle } from '../lib/idle-queue'
import { motionClock } from '../lib/motion-clock'

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
  const [animation, setAnimation] = useState<AnimationItem | null>(null)
  const callbacks = useRef({ onReady, onError })
  callbacks.current = { onReady, onError }

  useEffect(() => {
    const element = container.current
    if (!element) return
    let item: AnimationItem | undefined
    // Each player starts in an idle moment of its own (building its SVG is the costly part), not all of a
    // page's cards in the one task that mounts them: the still shows until then.
    const cancel = whenIdle(() => {
      try {
        // lottie-web writes into the data it is given: a copy keeps the cached answer as the server sent it.
        item = lottie.loadAnimation({
          container: element,
          renderer: 'svg',
          loop: true,
          autoplay: false,
          animationData: structuredClone(data),
        })
        // lottie-web puts each SVG on a compositor layer of its own (translate3d): a dozen layers to place and
        // commit on every frame cost more main-thread time than painting the stickers into the page's layer.
        element.querySelector('svg')?.style.removeProperty('transform')
      } catch {
        callbacks.current.onError()
        return
      }
      const started = item
      started.addEventListener('DOMLoaded', () => {
        setAnimation(started)
        callbacks.current.onReady()
      })
      started.addEventListener('error', () => callbacks.current.onError())
      started.addEventListener('data_failed', () => callbacks.current.onError())
    })
    return () => {
      cancel()
      setAnimation(null)
      item?.destroy()
    }
  }, [data])

  // The page's motion clock draws it (lottie-web's own loop would draw every sticker every frame, whatever
  // the CPU), and only the animation's own frames (30 a second for ours), never one between them: half
  // the main-thread work at the same look (bench:players). Paused, it keeps its frame and goes on from it.
  useEffect(() => {
    if (!animation || !playing) return
    const frames = animation.totalFrames
    const first = animation.currentFrame
    let startedAt: number | undefined
    const frameMs = 1000 / animation.frameRate
    return motionClock.start((now) => {
      startedAt ??= now
      // A screen frame that lands a hair before a sticker's frame is due (timestamps in fractions of a ms) shows it.
      const played = first + (now - startedAt + 1) / frameMs
      const frame = Math.floor(played) % frames
      if (frame !== animation.currentFrame) animation.goToAndStop(frame, true)
      return (Math.floor(played) + 1 - played) * frameMs
    })
  }, [animation, playing])

  return <div ref={container} role="img" aria-label={label} style={{ width: '100%', height: '100%' }} />
}
