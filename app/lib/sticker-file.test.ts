import { gzipSync } from 'node:zlib'
import { ZipFile } from 'yazl'
import { describe, expect, it } from 'vitest'
import { MAX_LOTTIE_BYTES } from '../../contract/limits'
import { readStickerFile, StickerFileError } from './sticker-file'

const animation = { v: '5.7.0', fr: 30, ip: 0, op: 30, w: 512, h: 512, nm: 'wave', layers: [{ ty: 4, nm: 'body' }] }
const json = new TextEncoder().encode(JSON.stringify(animation))

/** A dotLottie as its tools write one: a manifest, then the animation, compressed or stored. */
function dotLottie(files: Record<string, Uint8Array | string>, compress = true): Promise<Blob> {
  const zip = new ZipFile()
  for (const [name, content] of Object.entries(files))
    zip.addBuffer(Buffer.from(typeof content === 'string' ? new TextEncoder().encode(content) : content), name, { compress })
  zip.end()
  const chunks: Buffer[] = []
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk))
    zip.outputStream.on('end', () => resolve(new Blob([Buffer.concat(chunks)])))
    zip.outputStream.on('error', reject)
  })
}

const manifest = JSON.stringify({ version: '1', animations: [{ id: 'wave' }] })

describe('readStickerFile', () => {
  it('reads a Lottie JSON, a .tgs and a .lottie (deflated or stored) to the same animation', async () => {
    expect(await readStickerFile(new Blob([json]))).toEqual({ kind: 'lottie', lottie: animation })
    expect(await readStickerFile(new Blob([gzipSync(json)]))).toEqual({ kind: 'tgs', lottie: animation })
    for (const compress of [true, false]) {
      const file = await dotLottie({ 'manifest.json': manifest, 'animations/wave.json': json }, compress)
      expect(await readStickerFile(file)).toEqual({ kind: 'dotlottie', lottie: animation })
    }
  })

  it('says in words what is wrong with a file that is not a sticker', async () => {
    const refusal = (file: Blob) =>
      readStickerFile(file).then(
        () => 'read',
        (error: unknown) => error,
      )
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
    expect(await refusal(new Blob([png]))).toEqual(new StickerFileError('This is not a Lottie JSON, a .tgs or a .lottie file'))
    expect(await refusal(new Blob([JSON.stringify({ hello: 'world' })]))).toEqual(
      new StickerFileError('This file holds no Lottie animation'),
    )
    expect(await refusal(new Blob([gzipSync(json).subarray(0, 12)]))).toEqual(
      new StickerFileError('This file is damaged: it could not be unpacked'),
    )
    const whole = new Uint8Array(await (await dotLottie({ 'manifest.json': manifest, 'animations/wave.json': json })).arrayBuffer())
    expect(await refusal(new Blob([whole.subarray(0, whole.length - 30)]))).toEqual(
      new StickerFileError('This .lottie file is damaged: it is not a whole ZIP'),
    )
    expect(await refusal(await dotLottie({ 'manifest.json': manifest }))).toEqual(
      new StickerFileError('This .lottie file holds no animation (no animations/*.json)'),
    )
  })

  it('stops unpacking past the Lottie cap: a small .tgs that unpacks to more is refused', async () => {
    const bomb = gzipSync(new Uint8Array(MAX_LOTTIE_BYTES + 1024).fill(0x20))
    expect(bomb.length).toBeLessThan(10_000)
    await expect(readStickerFile(new Blob([bomb]))).rejects.toThrow('The animation is larger than 2 MB')
  })
})
