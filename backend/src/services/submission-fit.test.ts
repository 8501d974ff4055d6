import { describe, expect, it } from 'vitest'
import { lottieBytes } from '../../test/fixtures/lottie'
import { createFitCache, judgedFit, type PlatformFit } from './submission-fit'

describe('the fit check kept by content hash', () => {
  it('judges a stored file once, off the request, and answers the request without reading or judging it again', async () => {
    const judged: Uint8Array[] = []
    const cache = createFitCache(async (bytes) => {
      judged.push(bytes)
      return judgedFit(bytes)
    })
    const bytes = lottieBytes()
    cache.warm('abc', bytes)
    // Judged after the storing request's own work (setImmediate), not inside it.
    expect(judged).toEqual([])
    await new Promise((resolve) => setImmediate(resolve))
    expect(judged).toHaveLength(1)
    const reads: string[] = []
    const verdict = await cache.get('abc', async () => (reads.push('abc'), bytes))
    expect(reads).toEqual([])
    expect(judged).toHaveLength(1)
    expect(verdict!.find((fit) => fit.platform === 'telegram')).toMatchObject({ fits: true })
  })

  it('judges unknown bytes on the first request and keeps the verdict; a failed judgement is tried again', async () => {
    let calls = 0
    const cache = createFitCache(async () => {
      calls++
      if (calls === 1) throw new Error('worker gone')
      return [] as PlatformFit[]
    })
    const read = async () => lottieBytes()
    await expect(cache.get('def', read)).rejects.toThrow('worker gone')
    expect(await cache.get('def', read)).toEqual([])
    expect(await cache.get('def', read)).toEqual([])
    expect(calls).toBe(2)
    expect(await cache.get('gone', async () => undefined)).toBeUndefined()
  })
})
