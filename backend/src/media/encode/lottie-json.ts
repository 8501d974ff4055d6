/** Lottie JSON with numbers rounded to 3 decimals (computed paths carry long fractions). */
export function lottieBytes(lottie: object): Uint8Array {
  const json = JSON.stringify(lottie, (_key, value: unknown) =>
    typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 1000) / 1000 : value,
  )
  return new TextEncoder().encode(json)
}
