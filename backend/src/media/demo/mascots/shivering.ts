import { wumpus, type Mascot } from './body'
import { LINEAR, swing } from './lottie'
import { floating, snowflake } from './props'

const frames = 60

export const shivering: Mascot = {
  slug: 'shivering-wumpus',
  name: 'Shivering Wumpus',
  description: 'An icy blue wumpus hugging itself and shivering as snowflakes drift down.',
  tags: ['cold', 'winter', 'snow'],
  emoji: ['🥶', '❄️', '😬'],
  keywords: ['cold', 'brr'],
  lottie: wumpus({
    name: 'Shivering Wumpus',
    color: '#86d3f0',
    frames,
    mouth: 'wavy',
    blink: [30],
    root: { offset: swing([-3, 0], [3, 0], frames, 12, 0, LINEAR), scale: swing([100, 100], [102, 98], frames, 6) },
    arms: { left: swing(-36, -30, frames, 12), right: swing(36, 30, frames, 12) },
    ears: { rotation: swing(-6, 6, frames, 12) },
    back: [
      floating('flake-1', snowflake(16), {
        from: [-110, -250],
        to: [-92, -40],
        start: 0,
        duration: 60,
        frames,
        sway: 10,
        tilt: 40,
        grow: [90, 90],
      }),
      floating('flake-2', snowflake(14), {
        from: [104, -240],
        to: [118, -50],
        start: 30,
        duration: 60,
        frames,
        sway: 10,
        tilt: 40,
        grow: [90, 90],
      }),
      floating('flake-3', snowflake(12), {
        from: [60, -260],
        to: [76, -150],
        start: 12,
        duration: 48,
        frames,
        sway: 8,
        tilt: 40,
        grow: [90, 90],
      }),
    ],
  }),
}
