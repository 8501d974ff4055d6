import { Center, Loader, Text } from '@mantine/core'
import { useReducedMotion } from '@mantine/hooks'
import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense, useState } from 'react'
import { lottieJsonQueryOptions } from '../../../lib/lottie-json'

// lottie-web is only fetched once a Lottie preview is on screen.
const LottiePlayer = lazy(() => import('../../../components/lottie-player'))

/** Plays an uploaded Lottie (still under prefers-reduced-motion). */
export function LottieFilePreview({ url, label }: { url: string; label: string }) {
  const reducedMotion = useReducedMotion()
  const json = useQuery(lottieJsonQueryOptions(url))
  const [failed, setFailed] = useState(false)

  if (json.isError || failed) {
    return (
      <Center h="100%" p="xs">
        <Text size="xs" c="dimmed" ta="center">
          No preview for this Lottie
        </Text>
      </Center>
    )
  }
  const spinner = (
    <Center h="100%">
      <Loader size="sm" aria-label={`Loading ${label}`} />
    </Center>
  )
  if (!json.data) return spinner
  return (
    <Suspense fallback={spinner}>
      <LottiePlayer data={json.data} playing={!reducedMotion} label={label} onReady={() => {}} onError={() => setFailed(true)} />
    </Suspense>
  )
}
