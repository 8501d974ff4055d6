// The work a remix costs the render worker: its originals job and its derived job (previews and every
// platform file, from the plain Lottie and the outlined one) draw each frame sequence once and make
// each file once.
import { describe, expect, it } from 'vitest'
import { lottie } from '../../../test/fixtures/lottie'
import { FrameSource } from './frame-source'
import { runDerive, runJob } from './media-worker'
import { renderLottie } from './render-lottie'
import { mediaStats, resetMediaStats } from './render-stats'

const duplicates = (values: string[]) => values.filter((value, i) => values.indexOf(value) !== i)

// Whole render jobs: as the platform-export tests, a minute each at most on a busy machine.
describe('a remix in the render worker', () => {
  it('renders each frame sequence once across its originals and derived jobs', async () => {
    const plain = lottie({ nm: 'plain' })
    const outlined = lottie({ nm: 'outlined' })
    resetMediaStats()
    await runJob({ id: 1, lottie: plain })
    const made = await runDerive({ lottie: plain, outlined })
    expect(made.exports.filter((e) => e.file).length).toBeGreaterThanOrEqual(6)
    expect(duplicates(mediaStats.rendered)).toEqual([])
    expect(mediaStats.rendered.filter((r) => r.startsWith('outlined')).length).toBe(1)
  }, 60_000)

  it('makes no file twice: the original APNG is the Discord one, and Slack takes the Discord emoji GIF when they are the same', async () => {
    // 1.5 s at 30 fps: Slack's 50 frames hold it at the full rate, so Slack and Discord emoji want one file.
    const short = lottie({ nm: 'short', op: 45 })
    resetMediaStats()
    const originals = await runJob({ id: 1, lottie: short })
    const made = await runDerive({ lottie: short })
    const file = (platform: string) => made.exports.find((e) => e.platform === platform)?.file?.bytes
    expect(file('slack')).toEqual(file('discord-emoji'))
    expect(file('discord')).toEqual(originals.apng)
    expect(duplicates(mediaStats.made)).toEqual([])
  }, 60_000)
  it('draws a smaller size itself rather than scaling a larger render down (scaled frames encode 20-80% larger)', async () => {
    // Half a second of frames shows it as well as the default length, at a quarter of the work.
    const sizes = () => lottie({ nm: 'sizes', op: 15 })
    const source = new FrameSource(sizes())
    await source.asIs(512, 30)
    const small = await source.asIs(128, 30)
    expect(small.frames).toEqual((await renderLottie(sizes(), { size: 128, fps: 30 })).frames)
  }, 60_000)
})
