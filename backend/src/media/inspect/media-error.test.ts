import { describe, expect, it } from 'vitest'
import { mediaErrorCodes, mediaErrorMessages } from '../../../../contract/media'
import { MediaError } from './media-error'

describe('MediaError', () => {
  it('carries its code, the contract message and details', () => {
    const error = new MediaError('BAD_CRC', { chunk: 'IDAT' })
    expect(error).toBeInstanceOf(Error)
    expect(error).toMatchObject({ name: 'MediaError', code: 'BAD_CRC', details: { chunk: 'IDAT' } })
    expect(error.message).toBe(mediaErrorMessages.BAD_CRC)
  })

  it('has a distinct human message for every code', () => {
    const messages = mediaErrorCodes.map((code) => new MediaError(code).message)
    expect(new Set(messages).size).toBe(mediaErrorCodes.length)
    for (const message of messages) expect(message).toMatch(/^[A-Z].{10,}\.$/)
  })
})
