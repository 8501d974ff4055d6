// Lottie's own place for who made it: the top-level `meta` object (`a` author, `d` description, `k` keywords,
// `g` generator), which players ignore and exporters (bodymovin, LottieFiles) write. The gallery keeps the
// sticker's credited maker in `meta.a` of the Lottie it stores when the animation is published, so every file
// made from it (the Lottie download, the Telegram .tgs and the pack ZIPs holding it) carries the author.

/** The author a Lottie names in `meta.a`, if any. */
export function lottieAuthor(lottie: unknown): string | undefined {
  if (!isRecord(lottie) || !isRecord(lottie.meta)) return undefined
  return typeof lottie.meta.a === 'string' ? lottie.meta.a : undefined
}

/**
 * The Lottie JSON with `meta.a` set to `author` and every other key kept (other `meta` keys too), or
 * undefined when it names that author already or is not a JSON object (the inspector refuses those).
 */
export function lottieWithAuthor(bytes: Uint8Array, author: string): Uint8Array | undefined {
  let lottie: unknown
  try {
    lottie = JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    return undefined
  }
  if (!isRecord(lottie) || lottieAuthor(lottie) === author) return undefined
  lottie.meta = { ...(isRecord(lottie.meta) ? lottie.meta : {}), a: author }
  return new TextEncoder().encode(JSON.stringify(lottie))
}

/** A copy of a parsed Lottie without `meta.a` (the last thing a file over its byte cap gives up). */
export function withoutAuthor<T>(lottie: T): T {
  if (!isRecord(lottie) || !isRecord(lottie.meta) || !('a' in lottie.meta)) return lottie
  const { a: _author, ...meta } = lottie.meta
  return { ...lottie, meta }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
