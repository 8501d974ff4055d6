import { wumpus, type Mascot } from './body'
import { keys, swing } from './lottie'

const frames = 90

export const blinking: Mascot = {
  slug: 'blinky-wumpus',
  name: 'Blinky Wumpus',
  description: 'A peach wumpus looking around curiously and blinking its big round eyes.',
  tags: ['curious', 'eyes', 'cute'],
  emoji: ['😉', '👀', '🤔'],
  keywords: ['wink', 'curious'],
  lottie: wumpus({
    name: 'Blinky Wumpus',
    color: '#ffab7a',
    frames,
    mouth: 'small',
    blink: [18, 24, 66],
    root: { scale: swing([100, 100], [102, 98.5], frames, 2) },
    face: {
      offset: keys([
        [0, [0, 0]],
        [30, [0, 0]],
        [36, [-9, 1]],
        [50, [-9, 1]],
        [56, [9, 1]],
        [76, [9, 1]],
        [84, [0, 0]],
        [90, [0, 0]],
      ]),
      rotation: keys([
        [0, [0]],
        [30, [0]],
        [36, [-5]],
        [50, [-5]],
        [56, [5]],
        [76, [5]],
        [84, [0]],
        [90, [0]],
      ]),
    },
    ears: {
      rotation: keys([
        [0, [0]],
        [56, [0]],
        [59, [-16]],
        [62, [4]],
        [66, [0]],
        [90, [0]],
      ]),
    },
  }),
}
