import { describe, expect, it } from 'vitest'
import { maskEmail } from './mask-email'

describe('maskEmail', () => {
  it('keeps the first 3 characters and the domain', () => {
    expect(maskEmail('ana.smith@example.com')).toBe('ana...@example.com')
    expect(maskEmail('grace@mail.example.co.uk')).toBe('gra...@mail.example.co.uk')
  })

  it('never shows more of a short local part than it has', () => {
    expect(maskEmail('ab@x.io')).toBe('ab...@x.io')
    expect(maskEmail('abc@x.io')).toBe('abc...@x.io')
  })

  it('splits at the last @ and ignores surrounding spaces', () => {
    expect(maskEmail(' "a@b"@example.com ')).toBe('"a@...@example.com')
  })

  it('copes with values that are not addresses', () => {
    expect(maskEmail('')).toBe('')
    expect(maskEmail('nobody')).toBe('nob...')
  })
})
