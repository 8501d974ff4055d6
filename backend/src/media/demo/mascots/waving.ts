import { wumpus, type Mascot } from './body'
import { swing } from './lottie'

const frames = 60

export const waving: Mascot = {
  slug: 'waving-wumpus',
  name: 'Waving Wumpus',
  description: 'A friendly lavender wumpus waving hello with a big smile.',
  tags: ['hello', 'wave', 'greeting', 'friendly'],
  emoji: ['👋', '🙂', '😊'],
  keywords: ['hi', 'hello', 'bye'],
  lottie: wumpus({
    name: 'Waving Wumpus',
    color: '#8c9eff',
    frames,
    mouth: 'open',
    blink: [44],
    root: { rotation: swing(-3, 3, frames, 1, 0.25) },
    face: { rotation: swing(-4, 4, frames, 1, 0.25) },
    arms: { right: swing(-128, -172, frames, 3), left: swing(20, 28, frames, 1) },
    ears: { rotation: swing(0, -8, frames, 3) },
  }),
}
