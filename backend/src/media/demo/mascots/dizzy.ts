import { wumpus, type Mascot } from './body'
import { keys, LINEAR, swing } from './lottie'
import { orbit, starShape } from './props'

const frames = 60

export const dizzy: Mascot = {
  slug: 'dizzy-wumpus',
  name: 'Dizzy Wumpus',
  description: 'A lime green wumpus wobbling about with spinning eyes and stars around its head.',
  tags: ['dizzy', 'confused', 'stars'],
  emoji: ['😵‍💫', '💫', '🤪'],
  keywords: ['dizzy', 'confused'],
  lottie: wumpus({
    name: 'Dizzy Wumpus',
    color: '#a3dc5a',
    frames,
    eyes: 'spiral',
    mouth: 'wavy',
    eyeRotation: keys(
      [
        [0, [0]],
        [frames, [-720]],
      ],
      LINEAR,
    ),
    root: { rotation: swing(-8, 8, frames, 2, 0.25), offset: swing([-6, 0], [6, 0], frames, 2) },
    face: { rotation: swing(6, -6, frames, 2, 0.25) },
    arms: { left: swing(40, 70, frames, 2), right: swing(-70, -40, frames, 2) },
    ears: { style: 'horns', rotation: swing(-10, 10, frames, 2) },
    front: [0, 1 / 3, 2 / 3].map((phase, i) =>
      orbit(
        `star-${i}`,
        starShape(10),
        (u) => {
          const a = (u + phase) * Math.PI * 2
          return [Math.cos(a) * 82, -200 + Math.sin(a) * 14]
        },
        frames,
      ),
    ),
  }),
}
