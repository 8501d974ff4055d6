import { describe, expect, it } from 'vitest'
import { ApiError } from '../../lib/api-client'
import { remixErrorMessage } from './remix-errors'

describe('remixErrorMessage', () => {
  it('says when to try again in words that read well, from seconds to hours', () => {
    const busy = (retryAfterSeconds: number) =>
      remixErrorMessage(new ApiError(503, 'SERVER_BUSY', 'busy', { reason: 'remix-share', retryAfterSeconds }))
    expect(busy(1)).toBe('The server is busy making other stickers. Try again in 1 second.')
    expect(busy(60)).toBe('The server is busy making other stickers. Try again in 60 seconds.')
    expect(busy(600)).toBe('The server is busy making other stickers. Try again in 10 minutes.')
    expect(remixErrorMessage(new ApiError(429, 'RATE_LIMITED', 'limited', { retryAfterSeconds: 30 }))).toBe(
      'You made many stickers just now. Try again in 30 seconds.',
    )
  })

  it('says a day’s remixes are used up, and in how many hours the next one can be made', () => {
    const error = new ApiError(429, 'RATE_LIMITED', 'limited', { limit: 'remix-renders', max: 30, retryAfterSeconds: 20 * 3600 + 5 })
    expect(remixErrorMessage(error)).toBe('You have made 30 remixes today, the most for one day. Try again in 21 hours.')
  })
})
