import { wumpus, type Mascot } from './body'
import { swing } from './lottie'
import { floating, heartShape } from './props'

const frames = 60

export const lovestruck: Mascot = {
  slug: 'lovestruck-wumpus',
  name: 'Lovestruck Wumpus',
  description: 'A pink wumpus with heart eyes swaying dreamily as hearts float up.',
  tags: ['love', 'hearts', 'cute'],
  emoji: ['😍', '❤️', '🥰'],
  keywords: ['love', 'crush'],
  lottie: wumpus({
    name: 'Lovestruck Wumpus',
    color: '#ff8cc6',
    frames,
    eyes: 'heart',
    mouth: 'smile',
    ears: { style: 'floppy', rotation: swing(0, 8, frames, 2) },
    eyeScale: swing([100, 100], [122, 122], frames, 2),
    cheeks: { opacity: swing(60, 100, frames, 2) },
    root: { rotation: swing(-5, 5, frames, 1, 0.25) },
    face: { rotation: swing(-5, 5, frames, 1, 0.25) },
    arms: { left: swing(-38, -30, frames, 2), right: swing(38, 30, frames, 2) },
    front: [
      floating('heart-1', heartShape(14), { from: [-80, -150], to: [-112, -236], start: 0, duration: 40, frames, sway: 8, tilt: 14 }),
      floating('heart-2', heartShape(11, '#ff7aa8'), {
        from: [84, -160],
        to: [110, -230],
        start: 20,
        duration: 40,
        frames,
        sway: 8,
        tilt: 14,
      }),
      floating('heart-3', heartShape(9, '#ff3d6e'), {
        from: [0, -196],
        to: [12, -250],
        start: 40,
        duration: 40,
        frames,
        sway: 6,
        tilt: 14,
      }),
    ],
  }),
}
