import { Box } from '@mantine/core'
import { useReducedMotion } from '@mantine/hooks'
import { useQuery } from '@tanstack/react-query'
import { Component, lazy, Suspense, type ReactNode } from 'react'
import { authMascotsQueryOptions } from '../api'

const MascotPlayer = lazy(() => import('./mascot-player'))

/** A demo mascot beside the sign-in form (decorative); a different one dances while signing in. */
export function AuthMascot({ busy }: { busy: boolean }) {
  const reducedMotion = useReducedMotion()
  const { data: mascots = [] } = useQuery(authMascotsQueryOptions())
  const mascot = (busy ? mascots[1] : undefined) ?? mascots[0]

  return (
    <Box aria-hidden="true" w="100%" maw={{ base: 160, md: 360 }} mx="auto" style={{ aspectRatio: '1' }}>
      {mascot && (
        <Decoration>
          <Suspense fallback={null}>
            {/* A new player per animation, so the busy one starts from its first frame. */}
            <MascotPlayer key={mascot.lottie} src={mascot.lottie} playing={!reducedMotion} />
          </Suspense>
        </Decoration>
      )}
    </Box>
  )
}

/** A mascot that cannot load or play leaves an empty space, never a broken sign-in page. */
class Decoration extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  override render() {
    return this.state.failed ? null : this.props.children
  }
}
