import { Center, Loader, Text } from '@mantine/core'
import { useReducedMotion } from '@mantine/hooks'
import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense, useState } from 'react'
import { lottieJsonQueryOptions, type LottieJson } from '../../../lib/lottie-json'
import classes from './submissions.module.css'

// lottie-web is only fetched once a preview is on screen.
const LottiePlayer = lazy(() => import('../../../components/lottie-player'))

/** A submission's sticker playing in a square: the Lottie just picked (`data`) or the one stored (`url`). A new file needs a new key. */
export function StickerPreview({ data, url, label }: { data?: LottieJson; url?: string; label: string }) {
  const reducedMotion = useReducedMotion()
  const stored = useQuery({ ...lottieJsonQueryOptions(url ?? ''), enabled: !data && Boolean(url) })
  const [failed, setFailed] = useState<object | null>(null)
  const lottie = data ?? stored.data
  // A published submission's Lottie is the animation's now: nothing of its own to play.
  const nothing = !data && !url
  const spinner = (
    <Center h="100%">
      <Loader size="sm" aria-label={`Loading ${label}`} />
    </Center>
  )
  return (
    <div className={classes.preview}>
      {nothing ? (
        <Center h="100%" p="xs">
          <Text size="sm" c="dimmed" ta="center">
            Its animation is in the gallery now
          </Text>
        </Center>
      ) : stored.isError || (lottie && failed === lottie) ? (
        <Center h="100%" p="xs">
          <Text size="sm" c="dimmed" ta="center">
            This animation cannot be previewed here
          </Text>
        </Center>
      ) : !lottie ? (
        spinner
      ) : (
        <Suspense fallback={spinner}>
          <LottiePlayer data={lottie} playing={!reducedMotion} label={label} onReady={() => {}} onError={() => setFailed(lottie)} />
        </Suspense>
      )}
    </div>
  )
}
