// What a reviewer can know of a submission's chat app files before publishing, without rendering (renders are
// the fair queue's work, made on publish): Telegram's .tgs is the Lottie rewritten and gzipped, so it is made
// and checked here; the other apps' files are rendered, so only their duration limits are judged now.
import { PLATFORM_RULES, PLATFORMS, type Platform } from '../../../contract/stickers'
import { exportForPlatform } from '../media/exports/platform-exports'
import { seconds } from '../media/exports/platform-check'
import { lottieHeader } from '../media/render/render-lottie'

export interface PlatformFit {
  platform: Platform
  /** true: made and fits; false: cannot; null: decided when its files are rendered. */
  fits: boolean | null
  notes: string[]
  bytes?: number
}

/** Apps whose file length is bent to fit (LINE plays fewer times, Signal is judged on its file): no duration verdict. */
const LENGTH_BENT: readonly Platform[] = ['line', 'signal']

export async function judgedFit(lottieBytes: Uint8Array): Promise<PlatformFit[]> {
  let lottie: unknown
  let durationMs: number
  try {
    lottie = JSON.parse(new TextDecoder().decode(lottieBytes))
    const header = lottieHeader(lottie)
    durationMs = ((header.op - header.ip) / header.fr) * 1000
  } catch (error) {
    return PLATFORMS.map((platform) => ({ platform, fits: false, notes: [(error as Error).message] }))
  }
  const fits: PlatformFit[] = []
  for (const platform of PLATFORMS) {
    const rules = PLATFORM_RULES[platform]
    if (platform === 'telegram' || platform === 'telegram-emoji') {
      const made = await exportForPlatform(platform, lottie)
      fits.push(
        made.file
          ? { platform, fits: true, notes: made.notes, bytes: made.file.bytes.length }
          : { platform, fits: false, notes: made.notes },
      )
    } else if (!LENGTH_BENT.includes(platform) && durationMs > rules.maxDurationMs) {
      fits.push({
        platform,
        fits: false,
        notes: [`The animation runs ${seconds(durationMs)}; ${rules.label} allows ${seconds(rules.maxDurationMs)}`],
      })
    } else {
      fits.push({ platform, fits: null, notes: [`Its ${rules.kind} is rendered on publish; its size is checked then`] })
    }
  }
  return fits
}
