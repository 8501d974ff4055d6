// sRGB <-> OKLab (Björn Ottosson's published matrices): a space where equal distances look about equally
// different, so "similar shades" and "the same change of colour" mean what a person sees.

export interface Lab {
  L: number
  a: number
  b: number
}

const toLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
const fromLinear = (c: number) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055)
const clamp01 = (n: number) => Math.min(1, Math.max(0, n))

/** Channels 0..1 to OKLab. */
export function rgbToLab([red, green, blue]: readonly number[]): Lab {
  const r = toLinear(red ?? 0)
  const g = toLinear(green ?? 0)
  const b = toLinear(blue ?? 0)
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
  return {
    L: 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    a: 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    b: 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  }
}

/** OKLab to channels 0..1, clipped to the sRGB gamut. */
export function labToRgb({ L, a, b }: Lab): [number, number, number] {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3
  return [
    clamp01(fromLinear(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s)),
    clamp01(fromLinear(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s)),
    clamp01(fromLinear(-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s)),
  ]
}

/** `#rrggbb` from channels 0..1. */
export function rgbToHex(rgb: readonly number[]): string {
  return `#${rgb
    .slice(0, 3)
    .map((c) =>
      Math.round(clamp01(c) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`
}

/** Channels 0..1 from `#rrggbb`. */
export function hexToRgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16)
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255]
}

export const chroma = (lab: Lab) => Math.hypot(lab.a, lab.b)
