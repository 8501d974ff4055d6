import { wumpus, type Mascot } from './body'
import { LINEAR, swing } from './lottie'
import { floating, noteShape } from './props'

const frames = 60

export const dancing: Mascot = {
  slug: 'dancing-wumpus',
  name: 'Dancing Wumpus',
  description: 'A violet wumpus grooving side to side to its own little tune.',
  tags: ['dance', 'music', 'party'],
  emoji: ['💃', '🕺', '🎶'],
  keywords: ['groove', 'dance party'],
  lottie: wumpus({
    name: 'Dancing Wumpus',
    color: '#b48cff',
    frames,
    eyes: 'happy',
    mouth: 'grin',
    ears: { style: 'pointy', rotation: swing(-8, 8, frames, 2) },
    root: {
      rotation: swing(-9, 9, frames, 2, 0.25),
      offset: swing([0, 0], [0, -14], frames, 4, 0, LINEAR),
      scale: swing([100, 100], [104, 96], frames, 4, 0.5),
    },
    face: { rotation: swing(-6, 6, frames, 2, 0.25) },
    arms: { left: swing(150, 30, frames, 2), right: swing(-30, -150, frames, 2) },
    front: [
      floating('note-1', noteShape(22, '#6b3fd1'), {
        from: [-96, -120],
        to: [-118, -210],
        start: 0,
        duration: 40,
        frames,
        sway: 8,
        tilt: 12,
      }),
      floating('note-2', noteShape(19, '#ff5fa2'), {
        from: [92, -132],
        to: [116, -214],
        start: 32,
        duration: 40,
        frames,
        sway: 8,
        tilt: 12,
      }),
    ],
  }),
}
