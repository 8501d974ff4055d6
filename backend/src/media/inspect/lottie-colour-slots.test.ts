import { describe, expect, it } from 'vitest'
import { lottieBytes, utf8 } from '../../../test/fixtures/lottie'
import { lottieColourSlots } from './lottie-colour-slots'

describe('lottieColourSlots', () => {
  it('answers the slots of a Lottie as the API shows them, without their members', () => {
    // The fixture is one ball filled with rgb(0.35, 0.4, 0.95).
    expect(lottieColourSlots(lottieBytes())).toEqual([{ id: '5966f2', colour: '#5966f2', share: 1 }])
  })

  it('answers none for a file that does not read as a Lottie', () => {
    for (const text of ['not json', '[1, 2]', 'null', '{"layers": "none"}']) expect(lottieColourSlots(utf8(text)), text).toEqual([])
  })
})
