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

/** Verdicts kept at most (by content hash; a verdict is a few hundred bytes). */
const FITS_KEPT = 2000

/**
 * The fit verdicts by the Lottie's content hash (the stored file's sha256): judged when a submission's file is
 * stored, off that request, so the review queue's fit request reads the verdict instead of making the .tgs.
 * The same bytes always judge the same, so a verdict never goes stale; an instance that did not store the
 * file (or forgot the verdict) judges it once on the first request.
 */
export interface FitCache {
  /** Judges these bytes in the background unless known. */
  warm(sha256: string, lottieBytes: Uint8Array): void
  /** The verdict for these bytes, judged now (and kept) unless known; `read` gives the bytes on a miss. */
  get(sha256: string, read: () => Promise<Uint8Array | undefined>): Promise<PlatformFit[] | undefined>
}

export function createFitCache(judge: (bytes: Uint8Array) => Promise<PlatformFit[]> = judgedFit): FitCache {
  const kept = new Map<string, Promise<PlatformFit[]>>()
  const judgeOnce = (sha256: string, bytes: Uint8Array) => {
    const verdict = judge(bytes)
    if (kept.size >= FITS_KEPT) kept.delete(kept.keys().next().value!)
    kept.set(sha256, verdict)
    // A failed judgement is not kept: the next request tries again.
    verdict.catch(() => kept.delete(sha256))
    return verdict
  }
  return {
    warm(sha256, bytes) {
      setImmediate(() => {
        if (!kept.has(sha256)) judgeOnce(sha256, bytes).catch(() => undefined)
      })
    },
    async get(sha256, read) {
      const known = kept.get(sha256)
      if (known) return known
      const bytes = await read()
      return bytes && judgeOnce(sha256, bytes)
    },
  }
}
