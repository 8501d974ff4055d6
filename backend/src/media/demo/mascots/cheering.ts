import { wumpus, type Mascot } from './body'
import { swing } from './lottie'
import { confetti, sparkle, starShape, twinkle } from './props'

const frames = 48

export const cheering: Mascot = {
  slug: 'cheering-wumpus',
  name: 'Cheering Wumpus',
  description: 'An orange wumpus cheering with both arms up in a shower of sparkles.',
  tags: ['celebrate', 'party', 'hooray'],
  emoji: ['🎉', '🥳', '🙌'],
  keywords: ['congrats', 'hooray'],
  lottie: wumpus({
    name: 'Cheering Wumpus',
    color: '#ff9a3c',
    frames,
    eyes: 'happy',
    mouth: 'open',
    ears: { rotation: swing(-10, 8, frames, 4) },
    root: { offset: swing([0, 0], [0, -18], frames, 4), scale: swing([104, 96], [98, 103], frames, 4) },
    arms: { left: swing(118, 146, frames, 4), right: swing(-146, -118, frames, 4) },
    front: [
      twinkle('star-1', starShape(18), [-108, -176], 0, 24, frames),
      twinkle('star-2', starShape(15), [110, -146], 12, 24, frames),
      twinkle('star-3', starShape(13), [74, -212], 26, 24, frames),
      twinkle('spark-1', sparkle(15), [-70, -220], 36, 20, frames),
      twinkle('spark-2', sparkle(13), [-120, -104], 20, 20, frames),
      twinkle('bit-1', confetti(16, '#4fc3f7'), [118, -206], 4, 24, frames),
      twinkle('bit-2', confetti(16, '#ff5fa2'), [-30, -232], 30, 24, frames),
    ],
  }),
}
