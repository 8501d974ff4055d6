import { describe, expect, it } from 'vitest'
import { lottie, utf8 } from '../../../test/fixtures/lottie'
import { lottieAuthor, lottieWithAuthor, withoutAuthor } from './lottie-meta'

const bytesOf = (value: object) => utf8(JSON.stringify(value))
const read = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>

describe('the author in a Lottie’s meta', () => {
  it('adds meta.a to a Lottie without meta, changing nothing else', () => {
    const source = lottie()
    const stamped = read(lottieWithAuthor(bytesOf(source), 'Ana Lima')!)
    expect(stamped).toEqual({ ...source, meta: { a: 'Ana Lima' } })
    expect(lottieAuthor(stamped)).toBe('Ana Lima')
  })

  it('keeps the other meta keys and replaces an author already there', () => {
    const source = lottie({ meta: { g: 'LottieFiles AE 3.5.2', a: 'Someone Else', d: 'A wave', k: 'wave, hello' } })
    const stamped = read(lottieWithAuthor(bytesOf(source), 'Ana Lima')!)
    expect(stamped.meta).toEqual({ g: 'LottieFiles AE 3.5.2', a: 'Ana Lima', d: 'A wave', k: 'wave, hello' })
  })

  it('answers undefined when the author is named already, or the bytes are no JSON object', () => {
    expect(lottieWithAuthor(bytesOf(lottie({ meta: { a: 'Ana Lima' } })), 'Ana Lima')).toBeUndefined()
    expect(lottieWithAuthor(new TextEncoder().encode('[1,2]'), 'Ana Lima')).toBeUndefined()
    expect(lottieWithAuthor(new TextEncoder().encode('{"v":'), 'Ana Lima')).toBeUndefined()
  })

  it('leaves the author out of a copy, keeping the other meta keys and the source', () => {
    const source = lottie({ meta: { g: 'gen', a: 'Ana Lima' } })
    expect(withoutAuthor(source)).toEqual({ ...source, meta: { g: 'gen' } })
    expect(lottieAuthor(source)).toBe('Ana Lima')
  })
})
