import { useEffect, useMemo, useRef } from 'react'

export type DebouncedCallback<A extends unknown[]> = ((...args: A) => void) & { cancel(): void }

/**
 * Calls the latest `callback` once calls pause for `delay` ms; `cancel()` drops a pending call, as
 * unmounting does. Mantine's useDebouncedCallback without the options nothing here uses (leading,
 * maxWait, flush): the home page's script budget has no room for them.
 */
export function useDebouncedCallback<A extends unknown[]>(callback: (...args: A) => void, delay: number): DebouncedCallback<A> {
  const latest = useRef(callback)
  useEffect(() => {
    latest.current = callback
  })
  const debounced = useMemo(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const cancel = () => clearTimeout(timer)
    const call = (...args: A) => {
      cancel()
      timer = setTimeout(() => latest.current(...args), delay)
    }
    return Object.assign(call, { cancel })
  }, [delay])
  useEffect(() => debounced.cancel, [debounced])
  return debounced
}
