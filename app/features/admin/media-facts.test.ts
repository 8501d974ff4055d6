import { describe, expect, it } from 'vitest'
import { mediaFacts } from './media-facts'

describe('mediaFacts', () => {
  it('says size, frames, duration, loop and file size', () => {
    const facts = mediaFacts({
      format: 'gif',
      contentType: 'image/gif',
      width: 320,
      height: 240,
      frames: 60,
      durationMs: 2000,
      loop: 0,
      bytes: 49_459,
    })
    expect(facts).toEqual([
      { label: 'Size', value: '320 × 240 px' },
      { label: 'Frames', value: '60' },
      { label: 'Duration', value: '2.00 s' },
      { label: 'Loop', value: 'forever' },
      { label: 'File', value: '48.3 KB' },
    ])
  })

  it('counts plays in words', () => {
    const info = { format: 'apng', contentType: 'image/apng', width: 1, height: 1, frames: 2, durationMs: 1, bytes: 1 } as const
    expect(mediaFacts({ ...info, loop: 1 })[3]?.value).toBe('1 time')
    expect(mediaFacts({ ...info, loop: 3 })[3]?.value).toBe('3 times')
  })
})
