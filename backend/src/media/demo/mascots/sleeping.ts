import { wumpus, type Mascot } from './body'
import { swing } from './lottie'
import { floating, zLetter } from './props'

const frames = 90

export const sleeping: Mascot = {
  slug: 'sleepy-wumpus',
  name: 'Sleepy Wumpus',
  description: 'A dozy blue wumpus snoozing peacefully while little z’s float away.',
  tags: ['sleepy', 'night', 'tired'],
  emoji: ['😴', '💤', '🌙'],
  keywords: ['sleep', 'good night'],
  lottie: wumpus({
    name: 'Sleepy Wumpus',
    color: '#7d8fe0',
    frames,
    eyes: 'closed',
    mouth: 'o',
    mouthScale: swing([55, 55], [75, 80], frames, 1),
    ears: { style: 'floppy', rotation: swing(0, 6, frames, 1) },
    root: { scale: swing([100, 100], [104, 96], frames, 1), rotation: swing(4, 6, frames, 1) },
    face: { rotation: swing(8, 10, frames, 1), offset: [0, 6] },
    arms: { left: swing(14, 18, frames, 1), right: swing(-14, -18, frames, 1) },
    front: [0, 30, 60].map((start, i) =>
      floating(`z-${i}`, zLetter(7 + i * 1.5), {
        from: [46, -150],
        to: [106, -236],
        start,
        duration: 90,
        frames,
        sway: 10,
        grow: [50, 120],
      }),
    ),
  }),
}
