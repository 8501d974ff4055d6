import { describe, expect, it } from 'vitest'
import { lottieBytes } from './lottie-json'

describe('lottieBytes', () => {
  it('rounds fractions to 3 decimals and keeps integers', () => {
    expect(new TextDecoder().decode(lottieBytes({ a: 1.23456789, b: [2, -0.00049, 10.5] }))).toBe('{"a":1.235,"b":[2,0,10.5]}')
  })
})
