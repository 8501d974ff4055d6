// Work that can wait (a card's player starting), one piece per idle moment of the main thread: a dozen
// stickers starting at once is one long task (each builds its SVG), which on a slow phone holds taps and
// scrolling for a while; one at a time, each is a short task between frames.

const queue: Array<() => void> = []
let scheduled = false
/** An idle moment is waited for this long at most: a page that is never idle still gets its work done. */
const IDLE_TIMEOUT_MS = 1000

function schedule(): void {
  if (scheduled || queue.length === 0) return
  scheduled = true
  const run = () => {
    scheduled = false
    const task = queue.shift()
    try {
      task?.()
    } finally {
      schedule()
    }
  }
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS })
  else setTimeout(run, 0)
}

/** Runs `task` in an idle moment of its own, after the work queued before it; the answer cancels it if it has not run. */
export function whenIdle(task: () => void): () => void {
  queue.push(task)
  schedule()
  return () => {
    const index = queue.indexOf(task)
    if (index >= 0) queue.splice(index, 1)
  }
}
