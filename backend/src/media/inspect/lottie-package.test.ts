import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { ZipFile } from 'yazl'
import { lottieBytes } from '../../../test/fixtures/lottie'
import { MediaError } from './media-error'
import { packageOf, UnpackedTooLargeError, unpackLottie } from './lottie-package'

async function zip(entries: Record<string, Uint8Array>): Promise<Uint8Array> {
  const file = new ZipFile()
  for (const [name, bytes] of Object.entries(entries)) file.addBuffer(Buffer.from(bytes), name)
  file.end()
  const chunks: Buffer[] = []
  for await (const chunk of file.outputStream) chunks.push(chunk as Buffer)
  return new Uint8Array(Buffer.concat(chunks))
}

const manifest = (ids: string[]) => new TextEncoder().encode(JSON.stringify({ animations: ids.map((id) => ({ id })) }))
/** 50 MB of spaces after a Lottie: a few tens of KB compressed. */
const bombContent = () => {
  const bytes = new Uint8Array(50 * 1024 * 1024).fill(0x20)
  bytes.set(lottieBytes())
  return bytes
}

describe('unpackLottie', () => {
  it('tells packages by their bytes, not their names', () => {
    expect(packageOf(lottieBytes())).toBe('json')
    expect(packageOf(gzipSync(lottieBytes()))).toBe('tgs')
  })

  it('reads the animation the manifest names first, from animations/ or a/', async () => {
    const other = lottieBytes({ fr: 24 })
    const bytes = await zip({
      'manifest.json': manifest(['second', 'first']),
      'animations/first.json': lottieBytes(),
      'a/second.json': other,
    })
    expect((await unpackLottie(bytes, 1_000_000)).lottie).toEqual(other)
  })

  it('stops inflating at the cap: a gzip or zip bomb is refused before it becomes a large buffer', async () => {
    const content = bombContent()
    const tgs = gzipSync(content)
    expect(tgs.length).toBeLessThan(200_000)
    await expect(unpackLottie(tgs, 2_000_000)).rejects.toBeInstanceOf(UnpackedTooLargeError)
    const dotLottie = await zip({ 'manifest.json': manifest(['w']), 'animations/w.json': content })
    await expect(unpackLottie(dotLottie, 2_000_000)).rejects.toBeInstanceOf(UnpackedTooLargeError)
  })

  it('refuses broken packages as BAD_STRUCTURE', async () => {
    for (const bytes of [
      Uint8Array.from([0x1f, 0x8b, 8, 0, 9, 9, 9]),
      Uint8Array.from([0x50, 0x4b, 3, 4, 0, 0]),
      await zip({ 'animations/w.json': lottieBytes() }),
      await zip({ 'manifest.json': new TextEncoder().encode('{nope'), 'animations/w.json': lottieBytes() }),
      await zip({ 'manifest.json': manifest(['w']) }),
    ]) {
      const error = await unpackLottie(bytes, 1_000_000).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(MediaError)
      expect((error as MediaError).code).toBe('BAD_STRUCTURE')
    }
  })
})
