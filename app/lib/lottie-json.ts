import { queryOptions } from '@tanstack/react-query'
import { apiRequest, type ResponseParser } from './api-client'

export interface LottieJson {
  layers: unknown[]
}

/** A Lottie file is JSON with a layers array; anything else is not worth handing to the player. */
const lottieJson: ResponseParser<LottieJson> = {
  safeParse: (body) =>
    Array.isArray((body as { layers?: unknown } | null)?.layers)
      ? { success: true, data: body as LottieJson }
      : { success: false, error: { issues: ['not a Lottie'] } },
}

export const lottieJsonKeys = {
  all: ['lottie-json'] as const,
  file: (url: string) => [...lottieJsonKeys.all, url] as const,
}

/** A Lottie file, parsed. Files never change under their URL (the service worker keeps the ones played). */
export const lottieJsonQueryOptions = (url: string) =>
  queryOptions({
    queryKey: lottieJsonKeys.file(url),
    queryFn: ({ signal }) => apiRequest(url, lottieJson, { signal }),
    staleTime: Infinity,
  })

/** More layers than this (precomps counted) and a small card would spend a phone's CPU on every frame. */
export const MAX_PLAYED_LAYERS = 150

/** Whether the bytes of a Lottie file are one the card player plays (false for anything else). */
export async function playsLightFile(file: Blob): Promise<boolean> {
  try {
    const parsed = lottieJson.safeParse(JSON.parse(await file.text()))
    return parsed.success && playsLight(parsed.data)
  } catch {
    return false
  }
}

/**
 * Whether the light player draws this Lottie as the server renders it, at a cost a card can afford:
 * the light build has no expression engine (a property an expression drives would stand still), and
 * very large compositions play as their rendered WebP instead.
 */
export function playsLight(data: LottieJson): boolean {
  let layers = 0
  let expressions = false
  const walk = (value: unknown): void => {
    if (expressions || layers > MAX_PLAYED_LAYERS) return
    if (Array.isArray(value)) return value.forEach(walk)
    if (typeof value !== 'object' || value === null) return
    const record = value as Record<string, unknown>
    // An expression is a non-empty string under `x` (inside keyframes `x` holds numbers).
    if (typeof record.x === 'string' && record.x !== '') expressions = true
    if (Array.isArray(record.layers)) layers += record.layers.length
    Object.values(record).forEach(walk)
  }
  walk(data)
  return !expressions && layers <= MAX_PLAYED_LAYERS
}
