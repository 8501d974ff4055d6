import { wumpus, type Mascot } from './body'
import { EASE_IN, EASE_OUT, keys, type Prop } from './lottie'

const frames = 48
const hop = 24

/** Two hops: squash on landing, stretch on take-off, round at the top. */
function perHop(values: Array<[number, number[]]>): Prop {
  const k: Array<[number, number[], typeof EASE_OUT]> = []
  for (let h = 0; h <= frames; h += hop) {
    for (const [t, v] of values) if (h + t <= frames) k.push([h + t, v, t < hop / 2 ? EASE_OUT : EASE_IN])
  }
  return keys(k)
}

export const bouncing: Mascot = {
  slug: 'bouncy-wumpus',
  name: 'Bouncy Wumpus',
  description: 'A mint green wumpus bouncing up and down like a happy ball.',
  tags: ['happy', 'bounce', 'excited'],
  emoji: ['😄', '🤸', '✨'],
  keywords: ['yay', 'boing'],
  lottie: wumpus({
    name: 'Bouncy Wumpus',
    color: '#5ed6a8',
    frames,
    eyes: 'happy',
    ears: { style: 'horns' },
    mouth: 'open',
    root: {
      offset: perHop([
        [0, [0, 0]],
        [3, [0, -4]],
        [12, [0, -54]],
        [21, [0, -4]],
      ]),
      scale: perHop([
        [0, [116, 84]],
        [3, [94, 108]],
        [12, [100, 100]],
        [21, [96, 105]],
      ]),
    },
    arms: {
      left: perHop([
        [0, [40]],
        [12, [120]],
      ]),
      right: perHop([
        [0, [-40]],
        [12, [-120]],
      ]),
    },
    shadow: {
      scale: perHop([
        [0, [110, 110]],
        [12, [62, 62]],
      ]),
    },
  }),
}
