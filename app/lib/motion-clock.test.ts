import { describe, expect, it, vi } from 'vitest'
import { createMotionClock } from './motion-clock'

/** A browser's frames by hand: the test says when a frame comes, what rendering it costs and when time passes. */
function handClock() {
  let time = 0
  let frameWanted: ((now: number) => void) | undefined
  let rendered: (() => void) | undefined
  const waits: { at: number; callback: () => void }[] = []
  const clock = createMotionClock({
    now: () => time,
    nextFrame: (callback) => (frameWanted = callback),
    afterRender: (callback) => (rendered = callback),
    wait: (ms, callback) => waits.push({ at: time + ms, callback }),
  })
  return {
    clock,
    /** Whether the clock has asked for a frame. */
    get wantsFrame() {
      return frameWanted !== undefined
    },
    /** A frame: the drawings run, then the browser renders for `renderMs`. */
    frame(renderMs: number) {
      const callback = frameWanted!
      frameWanted = undefined
      callback(time)
      time += renderMs
      rendered!()
    },
    advance(ms: number) {
      time += ms
      for (const wait of waits.filter((wait) => wait.at <= time)) {
        waits.splice(waits.indexOf(wait), 1)
        wait.callback()
      }
    },
  }
}

describe('motion clock', () => {
  it('draws every playing sticker in one frame, at that frame’s time', () => {
    const browser = handClock()
    const drawn: [string, number][] = []
    browser.clock.start((now) => (drawn.push(['wave', now]), 0))
    browser.clock.start((now) => (drawn.push(['dance', now]), 0))
    browser.advance(100)
    browser.frame(2)
    expect(drawn).toEqual([
      ['wave', 100],
      ['dance', 100],
    ])
  })

  it('rests after each frame as long as the frame cost, so stickers take at most half the main thread', () => {
    const browser = handClock()
    let frames = 0
    browser.clock.start(() => (frames++, 0))
    browser.frame(40)
    expect(browser.wantsFrame).toBe(false)
    browser.advance(39)
    expect(browser.wantsFrame).toBe(false)
    browser.advance(1)
    expect(browser.wantsFrame).toBe(true)
    // A cheap frame (a fast CPU) is followed by the next one at once.
    browser.frame(0)
    browser.advance(0)
    expect(browser.wantsFrame).toBe(true)
    expect(frames).toBe(2)
  })

  it('asks for no screen frame before a sticker has a new frame to show', () => {
    const browser = handClock()
    const drawnAt: number[] = []
    // A 30 fps sticker: its next frame is due 33 ms after this one.
    browser.clock.start((now) => (drawnAt.push(now), 33))
    browser.clock.start(() => 50)
    browser.frame(2)
    browser.advance(22)
    expect(browser.wantsFrame).toBe(false)
    // Asked for just ahead of time: the screen's next frame comes when the sticker's is due.
    browser.advance(1)
    expect(browser.wantsFrame).toBe(true)
    browser.advance(10)
    browser.frame(2)
    expect(drawnAt).toEqual([0, 35])
  })

  it('stops asking for frames when nothing plays, and starts again with the next sticker', () => {
    const browser = handClock()
    const stop = browser.clock.start(() => 0)
    browser.frame(1)
    stop()
    browser.advance(1)
    expect(browser.wantsFrame).toBe(false)
    let drawn = 0
    browser.clock.start(() => (drawn++, 0))
    expect(browser.wantsFrame).toBe(true)
    browser.frame(1)
    expect(drawn).toBe(1)
  })

  it('goes on drawing the other stickers when one drawing throws', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const browser = handClock()
    let drawn = 0
    browser.clock.start(() => {
      throw new Error('broken sticker')
    })
    browser.clock.start(() => (drawn++, 0))
    browser.frame(1)
    browser.advance(1)
    browser.frame(1)
    expect(drawn).toBe(2)
    expect(logged).toHaveBeenCalledWith(new Error('broken sticker'))
    logged.mockRestore()
  })

  it('draws in one frame only the stickers its budget allows, and the others first in the next frame', () => {
    const browser = handClock()
    const drawn: string[][] = [[]]
    // Each drawing costs 3 ms of script: with a 4 ms budget a frame draws two of the four.
    for (const name of ['wave', 'dance', 'nap', 'jump'])
      browser.clock.start(() => {
        drawn.at(-1)!.push(name)
        browser.advance(3)
        return 0
      })
    browser.frame(2)
    drawn.push([])
    browser.advance(100)
    browser.frame(2)
    drawn.push([])
    browser.advance(100)
    browser.frame(2)
    expect(drawn).toEqual([
      ['wave', 'dance'],
      ['nap', 'jump'],
      ['wave', 'dance'],
    ])
  })
})
