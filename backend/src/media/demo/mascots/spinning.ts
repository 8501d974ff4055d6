import { wumpus, type Mascot } from './body'
import { EASE_IN, EASE_OUT, keys } from './lottie'

const frames = 54

export const spinning: Mascot = {
  slug: 'spinning-wumpus',
  name: 'Spinning Wumpus',
  description: 'A sunny yellow wumpus with little horns hopping into a full twirl.',
  tags: ['twirl', 'dance', 'happy'],
  emoji: ['🌀', '💃', '😄'],
  keywords: ['twirl', 'spin'],
  lottie: wumpus({
    name: 'Spinning Wumpus',
    color: '#ffcf4a',
    frames,
    eyes: 'happy',
    mouth: 'open',
    pivot: 'center',
    ears: { style: 'horns' },
    root: {
      rotation: keys([
        [0, [0]],
        [10, [0]],
        [40, [360]],
        [54, [360]],
      ]),
      offset: keys([
        [0, [0, 0]],
        [6, [0, 6], EASE_OUT],
        [24, [0, -48], EASE_IN],
        [40, [0, 0]],
        [44, [0, 6]],
        [54, [0, 0]],
      ]),
      scale: keys([
        [0, [100, 100]],
        [6, [110, 90]],
        [12, [95, 106]],
        [36, [100, 100]],
        [42, [110, 92]],
        [48, [100, 100]],
        [54, [100, 100]],
      ]),
    },
    arms: {
      left: keys([
        [0, [22]],
        [8, [22]],
        [14, [95]],
        [36, [95]],
        [44, [22]],
        [54, [22]],
      ]),
      right: keys([
        [0, [-22]],
        [8, [-22]],
        [14, [-95]],
        [36, [-95]],
        [44, [-22]],
        [54, [-22]],
      ]),
    },
    shadow: {
      scale: keys([
        [0, [100, 100]],
        [6, [106, 106]],
        [24, [70, 70]],
        [40, [100, 100]],
        [54, [100, 100]],
      ]),
    },
  }),
}
