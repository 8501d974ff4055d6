/**
 * Something the clock draws: a playing sticker. `now` is the frame's time (performance.now()'s clock); it
 * answers in how many ms its next frame is due (a 30 fps sticker on a 60 Hz screen needs every other frame).
 */
export type Draw = (now: number) => number

export interface MotionClockTimers {
  now(): number
  /** Calls back at the next frame, before the browser renders it. */
  nextFrame(callback: (now: number) => void): void
  /** Calls back once the frame being drawn has been rendered (style, layout, paint). */
  afterRender(callback: () => void): void
  wait(ms: number, callback: () => void): void
}

/** Stickers get at most this share of the main thread, whatever the CPU; the rest is left for the visitor. */
export const MOTION_SHARE = 0.5
/** The clock asks for a screen frame this long before a sticker's next frame is due (half a 60 Hz frame). */
const AHEAD_MS = 8
/**
 * Script time one screen frame may spend drawing stickers: past it, the stickers not drawn yet are drawn in
 * the next frames (first in line then). A frame's task is that plus its rendering; on a slow phone a dozen
 * stickers drawn in one frame made tasks long enough to hold a tap (Lighthouse counts each as blocking time).
 */
export const FRAME_DRAW_BUDGET_MS = 4

/**
 * One clock for every sticker playing on the page. Drawing a dozen Lottie stickers costs script, style,
 * layout and paint each frame, and on a slow phone that is the whole main thread (bench:grid). The clock
 * draws them all in one frame, measures what that frame cost up to the end of its rendering, and rests as
 * long again before the next one: on a fast CPU the stickers play every frame of their own, on a slow one
 * a frame draws those its budget allows (the others next) and they skip frames (each sticker shows the
 * frame its time is at, so it keeps its speed) and taps still find the main thread half free. Between a sticker's own frames it sleeps: no screen frame is asked for
 * that would show nothing new.
 */
export function createMotionClock(timers: MotionClockTimers, share = MOTION_SHARE, budgetMs = FRAME_DRAW_BUDGET_MS) {
  const drawings = new Set<Draw>()
  let scheduled = false
  /** Drawings a frame left for lack of time: the next frame starts with them. */
  let waiting: Draw[] = []

  function schedule() {
    if (scheduled || drawings.size === 0) return
    scheduled = true
    timers.nextFrame(frame)
  }

  function frame(now: number) {
    const started = timers.now()
    let nextDue = Infinity
    const waited = new Set(waiting)
    const order = [...waiting.filter((draw) => drawings.has(draw)), ...[...drawings].filter((draw) => !waited.has(draw))]
    waiting = []
    for (const [index, draw] of order.entries()) {
      if (index > 0 && timers.now() - started >= budgetMs) {
        waiting = order.slice(index)
        nextDue = 0
        break
      }
      // One broken sticker must not stop the others (or the clock).
      try {
        nextDue = Math.min(nextDue, draw(now))
      } catch (error) {
        nextDue = 0
        console.error(error)
      }
    }
    timers.afterRender(() => {
      const cost = timers.now() - started
      // The rest a frame's cost asks for, or longer if no sticker has a new frame to show before then.
      const untilDue = Math.min(nextDue, 1000) - cost - AHEAD_MS
      timers.wait(Math.max((cost * (1 - share)) / share, untilDue), () => {
        scheduled = false
        schedule()
      })
    })
  }

  return {
    /** Draws `draw` at every frame the clock gives until the returned function is called. */
    start(draw: Draw): () => void {
      drawings.add(draw)
      schedule()
      return () => drawings.delete(draw)
    },
  }
}

export const motionClock = createMotionClock({
  now: () => performance.now(),
  nextFrame: (callback) => requestAnimationFrame(callback),
  // A message posted while a frame is drawn is delivered after the browser has rendered that frame.
  afterRender: (callback) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      callback()
    }
    channel.port2.postMessage(null)
  },
  wait: (ms, callback) => setTimeout(callback, ms),
})
