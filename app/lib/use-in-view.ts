import { useEffect, useRef, useState } from 'react'

/**
 * Whether the returned element is at least `threshold` (0-1) in the viewport, watched only while
 * `enabled`. It starts out of view on the server and in the browser alike, so server-rendered HTML
 * hydrates without a mismatch; without IntersectionObserver (very old browsers) everything counts
 * as in view once mounted.
 */
export function useInView<T extends Element>(threshold: number, enabled = true) {
  const ref = useRef<T>(null)
  const [inView, setInView] = useState(false)

  useEffect(() => {
    const element = ref.current
    if (!element || !enabled) return
    if (typeof IntersectionObserver === 'undefined') {
      setInView(true)
      return
    }
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries.at(-1)
        if (entry) setInView(entry.isIntersecting && entry.intersectionRatio >= threshold)
      },
      { threshold },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [threshold, enabled])

  return { ref, inView }
}
