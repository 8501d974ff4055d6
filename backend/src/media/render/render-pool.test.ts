import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { gunzipSync } from 'node:zlib'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { withOutline } from '../../../../contract/remix/outline'
import type { Platform } from '../../../../contract/stickers'
import { inspectMedia } from '../inspect/inspect'
import { whiteRing } from '../../../test/fixtures/frame-error'
import {
  closeRenderPool,
  deriveAnimation,
  readColourSlots,
  renderAnimation,
  RenderPool,
  RenderQueueFullError,
  type MadeMedia,
} from './render-pool'

const tiny = {
  v: '5.7.4',
  fr: 20,
  ip: 0,
  op: 10,
  w: 64,
  h: 64,
  layers: [
    {
      ty: 4,
      ind: 1,
      ip: 0,
      op: 10,
      st: 0,
      ks: {
        o: { a: 0, k: 100 },
        r: { a: 0, k: 0 },
        a: { a: 0, k: [0, 0] },
        s: { a: 0, k: [100, 100] },
        p: {
          a: 1,
          k: [
            { t: 0, s: [20, 32], i: { x: [1], y: [1] }, o: { x: [0], y: [0] } },
            { t: 10, s: [44, 32] },
          ],
        },
      },
      shapes: [
        { ty: 'el', p: { a: 0, k: [0, 0] }, s: { a: 0, k: [40, 40] } },
        { ty: 'fl', c: { a: 0, k: [0.2, 0.6, 1, 1] }, o: { a: 0, k: 100 } },
      ],
    },
  ],
}

const ascii = (bytes: Uint8Array, n: number) => String.fromCharCode(...bytes.subarray(0, n))

describe('renderAnimation (shared worker)', () => {
  afterAll(() => closeRenderPool())

  it('renders and encodes in a worker thread', async () => {
    const out = await renderAnimation(tiny, { size: 48 })
    expect(out).toMatchObject({ frames: 10, durationMs: 500, width: 48, height: 48 })
    expect(ascii(out.gif, 6)).toBe('GIF89a')
    expect(ascii(out.apng.subarray(1), 3)).toBe('PNG')
    // The upload inspectors accept what the pipeline makes.
    expect(inspectMedia(out.gif, 'gif')).toMatchObject({ width: 48, height: 48, frames: 10, durationMs: 500, loop: 0 })
    expect(inspectMedia(out.apng, 'apng')).toMatchObject({ width: 48, height: 48, frames: 10, durationMs: 500, loop: 0 })
  })

  it('makes the card previews and one export per platform in the worker', async () => {
    const out = await deriveAnimation(tiny)
    expect([out.previews.small.facts.width, out.previews.large.facts.width, out.previews.still.facts.frames]).toEqual([300, 600, 1])
    expect(ascii(out.previews.small.bytes.subarray(8), 4)).toBe('WEBP')
    expect(out.exports.map((e) => [e.platform, e.file !== undefined])).toEqual([
      ['discord', true],
      ['discord-emoji', true],
      ['telegram', true],
      ['telegram-emoji', true],
      ['whatsapp', true],
      ['signal', true],
      ['line', true],
      ['slack', true],
    ])
    expect(Object.keys(out.timings)).toEqual([
      'previews',
      'discord',
      'discord-emoji',
      'telegram',
      'telegram-emoji',
      'whatsapp',
      'signal',
      'line',
      'slack',
    ])
  })

  it('makes the files of the apps that recommend an outline from the outlined variant, everything else from the plain one', async () => {
    const [plain, outlined] = await Promise.all([deriveAnimation(tiny), deriveAnimation(tiny, { outlined: withOutline(tiny) })])
    const file = (media: MadeMedia, platform: Platform) => media.exports.find((e) => e.platform === platform)!.file!.bytes
    const firstFrame = (webp: Uint8Array) => sharp(webp).ensureAlpha().raw().toBuffer()
    // WhatsApp: a white ring (at 512 px, about 13 px wide) where the plain sticker is transparent.
    const [plainWhatsapp, outlinedWhatsapp] = await Promise.all([
      firstFrame(file(plain, 'whatsapp')),
      firstFrame(file(outlined, 'whatsapp')),
    ])
    expect(whiteRing(plainWhatsapp, plainWhatsapp)).toBe(0)
    expect(whiteRing(plainWhatsapp, outlinedWhatsapp)).toBeGreaterThan(2000)
    // Telegram: the sticker's Lottie carries the outline layer.
    const layers = (tgs: Uint8Array) => (JSON.parse(gunzipSync(tgs).toString()) as { layers: unknown[] }).layers.length
    expect(layers(file(outlined, 'telegram'))).toBe(layers(file(plain, 'telegram')) + 1)
    // The previews and the other apps' files are the plain animation's, byte for byte.
    expect(outlined.previews.small.bytes).toEqual(plain.previews.small.bytes)
    for (const platform of ['discord', 'telegram-emoji', 'signal', 'line', 'slack'] as const) {
      expect(file(outlined, platform), platform).toEqual(file(plain, platform))
    }
  })

  it('reads the colour slots of a stored Lottie in the worker thread', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify(tiny))
    expect(await readColourSlots(bytes)).toEqual([{ id: '3399ff', colour: '#3399ff', share: 1 }])
    expect(await readColourSlots(new TextEncoder().encode('not a Lottie'))).toEqual([])
  })

  it('rejects a failing job and keeps serving', async () => {
    const bad = renderAnimation({ v: '5.7.4', fr: 30 })
    const good = renderAnimation(tiny, { size: 16, fps: 10 })
    await expect(bad).rejects.toThrow(/Invalid Lottie/)
    await expect(good).resolves.toMatchObject({ frames: 5, width: 16 })
  })
})

describe('RenderPool with a misbehaving worker', () => {
  const dir = mkdtempSync(join(tmpdir(), 'render-pool-'))
  // Replies like media-worker, but exits on 'crash' and never answers 'hang'.
  const script = join(dir, 'worker.mjs')
  writeFileSync(
    script,
    `
    import { parentPort } from 'node:worker_threads'
    parentPort.on('message', (job) => {
      if (job.lottie === 'crash') process.exit(3)
      if (job.lottie === 'hang') return
      if (job.lottie === 'hog') {
        const kept = []
        for (;;) kept.push(new Array(1e6).fill(kept.length))
      }
      parentPort.postMessage({ id: job.id, ok: true, result: { frames: job.lottie, gif: new Uint8Array(1), apng: new Uint8Array(1) } })
    })
  `,
  )
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('fails the job in flight when the worker dies, then starts a new worker for the queue', async () => {
    const pool = new RenderPool({ workerUrl: pathToFileURL(script) })
    const crash = pool.render('crash')
    const after = pool.render(7)
    await expect(crash).rejects.toThrow(/exited with code 3/)
    await expect(after).resolves.toMatchObject({ frames: 7 })
    await pool.close()
  })

  it('kills a job that runs too long and keeps serving', async () => {
    const pool = new RenderPool({ workerUrl: pathToFileURL(script), jobTimeoutMs: 500 })
    const hang = pool.render('hang')
    const after = pool.render(2)
    await expect(hang).rejects.toThrow(/timed out/)
    await expect(after).resolves.toMatchObject({ frames: 2 })
    await pool.close()
  })

  it('fails a job whose input cannot be sent to the worker and keeps serving', async () => {
    const pool = new RenderPool({ workerUrl: pathToFileURL(script) })
    await expect(pool.render({ draw: () => 1 })).rejects.toThrow(/could not be cloned/)
    await expect(pool.render(4)).resolves.toMatchObject({ frames: 4 })
    await pool.close()
  })

  it('rejects queued and new jobs once closed', async () => {
    const pool = new RenderPool({ workerUrl: pathToFileURL(script) })
    const first = expect(pool.render('hang')).rejects.toThrow(/closed/)
    const queued = expect(pool.render(1)).rejects.toThrow(/closed/)
    await pool.close()
    await first
    await queued
    await expect(pool.render(1)).rejects.toThrow(/closed/)
  })

  it('refuses jobs beyond its queue with a time to retry, and takes them again once there is room', async () => {
    const pool = new RenderPool({ workerUrl: pathToFileURL(script), maxQueued: 2, jobTimeoutMs: 1000 })
    const running = pool.render('hang')
    const queued = [pool.render(1), pool.render(2)]
    const refused = await pool.render(3).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(RenderQueueFullError)
    expect((refused as RenderQueueFullError).retryAfterSeconds).toBeGreaterThanOrEqual(1)
    await expect(running).rejects.toThrow(/timed out/)
    await expect(Promise.all(queued)).resolves.toMatchObject([{ frames: 1 }, { frames: 2 }])
    await expect(pool.render(3)).resolves.toMatchObject({ frames: 3 })
    await pool.close()
  })

  it("queues the server's own background jobs (previews and exports) even when the queue is full", async () => {
    const pool = new RenderPool({ workerUrl: pathToFileURL(script), maxQueued: 1, jobTimeoutMs: 1000 })
    const running = pool.render('hang')
    const queued = pool.render(1)
    await expect(pool.render(2)).rejects.toBeInstanceOf(RenderQueueFullError)
    const background = pool.derive(7)
    await expect(running).rejects.toThrow(/timed out/)
    await expect(queued).resolves.toMatchObject({ frames: 1 })
    await expect(background).resolves.toMatchObject({ frames: 7 })
    await pool.close()
  })

  it('reads colour slots ahead of the renders waiting, in the order asked, even when the queue is full', async () => {
    const pool = new RenderPool({ workerUrl: pathToFileURL(script), maxQueued: 1, jobTimeoutMs: 1000 })
    const done: string[] = []
    const running = pool.render('hang').catch(() => done.push('running render'))
    const queued = pool.render(1).then(() => done.push('queued render'))
    await expect(pool.render(2)).rejects.toBeInstanceOf(RenderQueueFullError)
    const colours = [1, 2].map((n) => pool.colourSlots(new Uint8Array([n])).then(() => done.push(`colours ${n}`)))
    await Promise.all([running, queued, ...colours])
    expect(done).toEqual(['running render', 'colours 1', 'colours 2', 'queued render'])
    await pool.close()
  })

  it('stops a job that outgrows the worker memory limit, and keeps serving', async () => {
    const pool = new RenderPool({ workerUrl: pathToFileURL(script) })
    await expect(pool.render('hog')).rejects.toThrow(/memory/i)
    await expect(pool.render(5)).resolves.toMatchObject({ frames: 5 })
    await pool.close()
  })
})
