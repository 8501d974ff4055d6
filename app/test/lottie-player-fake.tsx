import { useEffect } from 'react'
import type { LottiePlayerProps } from '../components/lottie-player'

/** What the players were handed, latest last; emptied after each test. */
export const playedLotties: Array<Pick<LottiePlayerProps, 'label' | 'data' | 'playing'>> = []

/**
 * lottie-web cannot draw in jsdom (the browser tests play real ones): every app test gets this stand-in
 * (see setup.ts), which is ready at once and records what it is handed.
 */
export function FakeLottiePlayer({ data, playing, label, onReady }: LottiePlayerProps) {
  useEffect(() => {
    playedLotties.push({ label, data, playing })
    onReady()
  }, [label, data, playing, onReady])
  return <div role="img" aria-label={label} />
}
