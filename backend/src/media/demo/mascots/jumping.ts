import { wumpus, type Mascot } from './body'
import { EASE_IN, EASE_OUT, keys } from './lottie'

const frames = 54

export const jumping: Mascot = {
  slug: 'jumping-wumpus',
  name: 'Jumping Wumpus',
  description: 'A coral wumpus crouching down and leaping for joy with both arms up.',
  tags: ['joy', 'excited', 'celebrate'],
  emoji: ['🤩', '🙌', '🎉'],
  keywords: ['yay', 'jump for joy'],
  lottie: wumpus({
    name: 'Jumping Wumpus',
    color: '#ff7a7a',
    frames,
    eyes: 'happy',
    mouth: 'open',
    ears: {
      style: 'pointy',
      rotation: keys([
        [0, [0]],
        [10, [-10]],
        [16, [14]],
        [30, [-6]],
        [38, [-12]],
        [46, [0]],
        [54, [0]],
      ]),
    },
    root: {
      offset: keys([
        [0, [0, 0]],
        [10, [0, 0]],
        [14, [0, -8], EASE_OUT],
        [26, [0, -46], EASE_IN],
        [36, [0, 0]],
        [54, [0, 0]],
      ]),
      scale: keys([
        [0, [100, 100]],
        [10, [118, 80]],
        [15, [92, 110]],
        [26, [100, 100]],
        [35, [96, 106]],
        [38, [118, 82]],
        [46, [98, 102]],
        [50, [100, 100]],
        [54, [100, 100]],
      ]),
    },
    arms: {
      left: keys([
        [0, [22]],
        [10, [60]],
        [16, [140]],
        [32, [130]],
        [38, [50]],
        [46, [22]],
        [54, [22]],
      ]),
      right: keys([
        [0, [-22]],
        [10, [-60]],
        [16, [-140]],
        [32, [-130]],
        [38, [-50]],
        [46, [-22]],
        [54, [-22]],
      ]),
    },
    shadow: {
      scale: keys([
        [0, [100, 100]],
        [10, [112, 112]],
        [26, [55, 55]],
        [36, [112, 112]],
        [46, [100, 100]],
        [54, [100, 100]],
      ]),
    },
  }),
}
