// npx tsx scripts/make-icons.ts — draws the PWA icons from our own mascot (the Waving Wumpus, rendered
// with the server's Lottie renderer) on a coloured background and writes them to app/public/icons/.
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { demoMascots } from '../backend/src/media/demo/demo-set'
import { encodePng } from '../backend/src/media/encode/encode-apng'
import { renderLottie } from '../backend/src/media/render/render-lottie'

const OUT_DIR = path.resolve(import.meta.dirname, '../app/public/icons')
/** Mantine indigo 9: the theme colour, dark enough behind the lavender mascot. */
const BACKGROUND = [0x36, 0x4f, 0xc7] as const
/** The frame of the wave to show (arm up). */
const FRAME = 0.2

interface IconSpec {
  file: string
  size: number
  /** Transparent rounded corners ('any' icons); full bleed for maskable and Apple icons. */
  rounded: boolean
  /** Largest distance from the centre any mascot pixel may reach, as a share of the size. */
  reach: number
}

const ICONS: IconSpec[] = [
  { file: 'icon-192.png', size: 192, rounded: true, reach: 0.42 },
  { file: 'icon-512.png', size: 512, rounded: true, reach: 0.42 },
  // Maskable: the platform may crop to a circle of 80 % of the size, so stay well inside it.
  { file: 'icon-maskable-512.png', size: 512, rounded: false, reach: 0.36 },
  // iOS rounds the corners itself and shows transparency as black.
  { file: 'apple-touch-icon-180.png', size: 180, rounded: false, reach: 0.4 },
]

interface Sprite {
  width: number
  height: number
  rgba: Uint8Array
  /** Centre of the drawn pixels and the farthest drawn pixel's distance from it. */
  cx: number
  cy: number
  radius: number
}

const mascot = demoMascots().find((m) => m.slug === 'waving-wumpus')
if (!mascot) throw new Error('the Waving Wumpus is missing from the demo set')

async function renderSprite(size: number): Promise<Sprite> {
  const { width, height, frames } = await renderLottie(mascot!.lottie, { size })
  const rgba = frames[Math.floor(frames.length * FRAME)]!
  let minX = width,
    minY = height,
    maxX = -1,
    maxY = -1
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (rgba[(y * width + x) * 4 + 3]! > 8) {
        minX = Math.min(minX, x)
        maxX = Math.max(maxX, x)
        minY = Math.min(minY, y)
        maxY = Math.max(maxY, y)
      }
    }
  }
  if (maxX < 0) throw new Error('the mascot frame is empty')
  const cx = (minX + maxX + 1) / 2
  const cy = (minY + maxY + 1) / 2
  let radius = 0
  for (let y = minY; y <= maxY; y++) {
    for (let x = minX; x <= maxX; x++) {
      if (rgba[(y * width + x) * 4 + 3]! > 8) radius = Math.max(radius, Math.hypot(x + 0.5 - cx, y + 0.5 - cy))
    }
  }
  return { width, height, rgba, cx, cy, radius }
}

/** Coverage (0..1) of pixel (x, y) by a rounded square of the given size and corner radius. */
function roundedCoverage(x: number, y: number, size: number, corner: number): number {
  let inside = 0
  const samples = 4
  for (let sy = 0; sy < samples; sy++) {
    for (let sx = 0; sx < samples; sx++) {
      const px = x + (sx + 0.5) / samples
      const py = y + (sy + 0.5) / samples
      const dx = Math.max(corner - px, px - (size - corner), 0)
      const dy = Math.max(corner - py, py - (size - corner), 0)
      if (dx * dx + dy * dy <= corner * corner) inside++
    }
  }
  return inside / (samples * samples)
}

async function makeIcon(spec: IconSpec): Promise<Uint8Array> {
  // Render once to measure, then again at the scale that makes the mascot reach exactly as far as allowed.
  const probe = await renderSprite(spec.size)
  const sprite = await renderSprite(Math.round((spec.size * (spec.reach * spec.size)) / probe.radius))
  const offsetX = Math.round(spec.size / 2 - sprite.cx)
  const offsetY = Math.round(spec.size / 2 - sprite.cy)
  const out = new Uint8Array(spec.size * spec.size * 4)
  const corner = spec.size * 0.22
  for (let y = 0; y < spec.size; y++) {
    for (let x = 0; x < spec.size; x++) {
      const o = (y * spec.size + x) * 4
      let [r, g, b] = BACKGROUND as readonly number[] as [number, number, number]
      const sx = x - offsetX
      const sy = y - offsetY
      if (sx >= 0 && sy >= 0 && sx < sprite.width && sy < sprite.height) {
        const i = (sy * sprite.width + sx) * 4
        const a = sprite.rgba[i + 3]! / 255
        r = sprite.rgba[i]! * a + r * (1 - a)
        g = sprite.rgba[i + 1]! * a + g * (1 - a)
        b = sprite.rgba[i + 2]! * a + b * (1 - a)
      }
      out[o] = Math.round(r)
      out[o + 1] = Math.round(g)
      out[o + 2] = Math.round(b)
      out[o + 3] = spec.rounded ? Math.round(255 * roundedCoverage(x, y, spec.size, corner)) : 255
    }
  }
  return encodePng(spec.size, spec.size, out, 9)
}

mkdirSync(OUT_DIR, { recursive: true })
for (const spec of ICONS) {
  const png = await makeIcon(spec)
  writeFileSync(path.join(OUT_DIR, spec.file), png)
  console.log(`${spec.file}: ${spec.size}x${spec.size}, ${(png.length / 1024).toFixed(1)} KB`)
}
