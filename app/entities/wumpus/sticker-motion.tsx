import { useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import { lottieJsonQueryOptions, playsLight } from '../../lib/lottie-json'
import LottiePlayer from '../../components/lottie-player'

export interface StickerMotionProps {
  /** The sticker's Lottie file. */
  url: string
  playing: boolean
  label: string
  onReady: () => void
  /** It cannot play here: fetched with an error, or not one the light player draws well. */
  onFailed: () => void
}

// Default export for React.lazy: fetching, checking and playing a Lottie load after the page is
// interactive, in one chunk with lottie-web, so the home page's first scripts carry none of it.
export default function StickerMotion({ url, playing, label, onReady, onFailed }: StickerMotionProps) {
  const json = useQuery(lottieJsonQueryOptions(url))
  const playable = json.data !== undefined && playsLight(json.data)
  const failed = json.isError || (json.data !== undefined && !playable)
  useEffect(() => {
    if (failed) onFailed()
  }, [failed, onFailed])
  if (!playable) return null
  return <LottiePlayer data={json.data} playing={playing} label={label} onReady={onReady} onError={onFailed} />
}
