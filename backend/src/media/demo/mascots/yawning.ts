import { wumpus, type Mascot } from './body'
import { keys } from './lottie'

const frames = 84

export const yawning: Mascot = {
  slug: 'yawning-wumpus',
  name: 'Yawning Wumpus',
  description: 'A teal wumpus stretching its stubby arms up in a great big yawn.',
  tags: ['tired', 'sleepy', 'morning'],
  emoji: ['🥱', '😪', '☕'],
  keywords: ['tired', 'good morning'],
  lottie: wumpus({
    name: 'Yawning Wumpus',
    color: '#3fc4c9',
    frames,
    mouth: 'o',
    blink: [[22, 58], 74],
    mouthScale: keys([
      [0, [45, 45]],
      [16, [45, 45]],
      [30, [150, 190]],
      [52, [140, 180]],
      [62, [45, 45]],
      [84, [45, 45]],
    ]),
    root: {
      scale: keys([
        [0, [100, 100]],
        [16, [100, 100]],
        [32, [95, 108]],
        [52, [96, 107]],
        [62, [103, 97]],
        [70, [100, 100]],
        [84, [100, 100]],
      ]),
    },
    face: {
      rotation: keys([
        [0, [0]],
        [18, [0]],
        [32, [-6]],
        [54, [-6]],
        [64, [0]],
        [84, [0]],
      ]),
    },
    arms: {
      left: keys([
        [0, [22]],
        [16, [22]],
        [30, [150]],
        [54, [144]],
        [64, [22]],
        [84, [22]],
      ]),
      right: keys([
        [0, [-22]],
        [16, [-22]],
        [30, [-150]],
        [54, [-144]],
        [64, [-22]],
        [84, [-22]],
      ]),
    },
    ears: {
      style: 'pointy',
      rotation: keys([
        [0, [0]],
        [20, [0]],
        [32, [-12]],
        [54, [-12]],
        [64, [4]],
        [70, [0]],
        [84, [0]],
      ]),
    },
  }),
}
