// npm run bench:media — the demo set as the server makes it: bytes of the original GIF and APNG,
// of the card previews and of each platform export (median and max), render plus encode time per
// sticker (in all, and for each platform), a remix from edit to all files ready (each step's time, and
// its files' bytes beside the original's), the first start (ready, then every preview and export made),
// and a phone's first visit to the home page (375x812, empty cache, until the network is quiet),
// counted on the wire.
import { colourSlots } from '../contract/remix/colours'
import type { Lottie } from '../contract/remix/lottie-walk'
import { applyRecipe, recipeSchema } from '../contract/remix/recipe'
import { PLATFORM_RULES, PLATFORMS, type Platform } from '../contract/stickers'
import { captionFont } from '../backend/src/media/render/caption-font'
import { demoMascots } from '../backend/src/media/demo/demo-set'
import { makeMedia } from '../backend/src/media/exports/make-media'
import { runJob } from '../backend/src/media/render/media-worker'
import { drawOutline } from '../backend/src/media/render/raster-outline'
import { closeRenderPool, deriveAnimation, renderAnimation, type MadeMedia } from '../backend/src/media/render/render-pool'
import { renderLottie } from '../backend/src/media/render/render-lottie'
import { launchBrowser } from '../e2e/support/browser'
import { measureFirstVisit } from './support/first-visit'
import { buildAndServe, waitForDerivedMedia } from './support/serve-build'

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
const stats = (values: number[]) =>
  values.length === 0
    ? 'none'
    : `median ${kb(median(values))}, max ${kb(Math.max(...values))}, total ${kb(values.reduce((a, b) => a + b, 0))}`
const pad = (text: string | number, width: number) => String(text).padStart(width)

// 1. The demo set, in this process (the same code the render worker runs).
const gif: number[] = []
const apng: number[] = []
const previews = { small: [] as number[], large: [] as number[], still: [] as number[] }
const platforms = Object.fromEntries(PLATFORMS.map((p) => [p, [] as number[]])) as Record<string, number[]>
const platformMs = Object.fromEntries(PLATFORMS.map((p) => [p, [] as number[]])) as Record<string, number[]>
const signalRows: string[] = []
const durations = Object.fromEntries(PLATFORMS.map((p) => [p, [] as number[]])) as Record<string, number[]>
/** Frames per second as shown (frames over duration; held frames make an APNG's count lower than its rate). */
const rates = Object.fromEntries(PLATFORMS.map((p) => [p, [] as number[]])) as Record<string, number[]>
const timeNotes: string[] = []
/** Every file of one sticker: GIF and APNG, previews and every platform export, in ms. */
const oneSticker: number[] = []
console.log('Demo set, one sticker at a time (times in ms):')
console.log(
  `${'sticker'.padEnd(20)}${pad('GIF', 10)}${pad('APNG', 10)}${pad('originals', 11)}${pad('previews', 10)}${pad('exports', 9)}  exports made`,
)
for (const mascot of demoMascots()) {
  const started = performance.now()
  const originals = await runJob({ id: 0, lottie: mascot.lottie })
  const originalsMs = performance.now() - started
  const derived = await makeMedia(mascot.lottie)
  gif.push(originals.gif.length)
  apng.push(originals.apng.length)
  previews.small.push(derived.previews.small.bytes.length)
  previews.large.push(derived.previews.large.bytes.length)
  previews.still.push(derived.previews.still.bytes.length)
  for (const e of derived.exports) {
    if (!e.file) continue
    platforms[e.platform]!.push(e.file.bytes.length)
    const facts = e.file.facts
    durations[e.platform]!.push(facts.durationMs)
    rates[e.platform]!.push(facts.fps ?? (facts.durationMs > 0 ? (facts.frames * 1000) / facts.durationMs : 0))
    for (const note of e.notes) if (/as fast|Cut to|Starts .* in,/.test(note)) timeNotes.push(`${mascot.slug} ${e.platform}: ${note}`)
  }
  oneSticker.push(originalsMs + derived.timings.previews + PLATFORMS.reduce((sum, p) => sum + derived.timings[p], 0))
  for (const p of PLATFORMS) platformMs[p]!.push(derived.timings[p])
  const signal = derived.exports.find((e) => e.platform === 'signal')!
  const facts = signal.file?.facts
  signalRows.push(
    `  ${mascot.slug.padEnd(20)}${facts ? `${facts.width}px ${facts.frames} frames ${facts.durationMs} ms ${kb(signal.file!.bytes.length)}, PNG colour type ${signal.file!.bytes[25]}` : 'none'}${signal.notes.length ? `: ${signal.notes.join('; ')}` : ''}`,
  )
  const exportsMs = PLATFORMS.reduce((sum, p) => sum + derived.timings[p], 0)
  const made = derived.exports.filter((e) => e.file).map((e) => e.platform)
  console.log(
    `${mascot.slug.padEnd(20)}${pad(kb(originals.gif.length), 10)}${pad(kb(originals.apng.length), 10)}${pad(Math.round(originalsMs), 11)}${pad(Math.round(derived.timings.previews), 10)}${pad(Math.round(exportsMs), 9)}  ${made.length === PLATFORMS.length ? 'all' : made.join(' ')}`,
  )
}
console.log('\nBytes per format (12 stickers):')
console.log(`  GIF            ${stats(gif)}`)
console.log(`  APNG           ${stats(apng)}`)
console.log(`  GIF + APNG     total ${kb([...gif, ...apng].reduce((a, b) => a + b, 0))}`)
console.log(`  preview 1x     ${stats(previews.small)}`)
console.log(`  preview 2x     ${stats(previews.large)}`)
console.log(`  still          ${stats(previews.still)}`)
console.log('Bytes per platform export (cap in brackets), and its render plus encode time per sticker:')
for (const p of PLATFORMS) {
  const ms = platformMs[p]!
  console.log(
    `  ${PLATFORM_RULES[p].label.padEnd(14)} [${PLATFORM_RULES[p].maxBytesLabel.padStart(7)}]  ${platforms[p]!.length}/12 made, ${stats(platforms[p]!)}; time median ${Math.round(median(ms))} ms, max ${Math.round(Math.max(...ms))} ms`,
  )
}
const range = (values: number[], unit: string, digits = 0) =>
  values.length === 0 ? 'none' : `median ${median(values).toFixed(digits)} ${unit}, max ${Math.max(...values).toFixed(digits)} ${unit}`
console.log('Duration and frame rate per platform export:')
for (const p of PLATFORMS)
  console.log(`  ${PLATFORM_RULES[p].label.padEnd(14)} duration ${range(durations[p]!, 'ms')}; rate ${range(rates[p]!, 'fps', 1)}`)
console.log(`Files sped up, cut or started later to fit a rule: ${timeNotes.length === 0 ? 'none' : ''}`)
for (const note of timeNotes) console.log(`  ${note}`)
console.log(
  `Every file of one sticker (GIF, APNG, previews, all platform exports), one after another: median ${Math.round(median(oneSticker))} ms, max ${Math.round(Math.max(...oneSticker))} ms`,
)
console.log('Signal per sticker (colour type 6: truecolour, 3: palette):')
for (const row of signalRows) console.log(row)

// 2. A remix, edit to all files ready, in the render worker as the server makes it: the recipe applied
// (the plain Lottie, and the outlined one for the apps that recommend an outline), GIF and APNG, then
// previews and platform exports. The original goes through the same worker steps for comparison.
{
  const mascot = demoMascots().find((m) => m.slug === 'waving-wumpus')!
  const original = mascot.lottie as Lottie
  const recipe = recipeSchema.parse({
    colours: { [colourSlots(original)[0]!.id]: '#e0457b' },
    caption: { text: 'gm friends', position: 'bottom' },
    speed: 1.5,
    mirror: true,
  })
  const shown: Platform[] = ['discord', 'whatsapp', 'telegram']
  const fileBytes = (media: MadeMedia, platform: Platform) => media.exports.find((e) => e.platform === platform)?.file?.bytes.length
  const pipeline = async (lottie: Lottie, outlined?: Lottie) => {
    const t0 = performance.now()
    const originals = await renderAnimation(lottie)
    const t1 = performance.now()
    const derived = await deriveAnimation(lottie, { outlined })
    const t2 = performance.now()
    return { originals, derived, originalsMs: t1 - t0, derivedMs: t2 - t1 }
  }
  // The worker's first job pays for its start; this one is not counted.
  await renderAnimation(original, { size: 16, fps: 1 })
  const before = await pipeline(original)
  const font = captionFont()
  const t0 = performance.now()
  const edited = applyRecipe(original, recipe, { font, outline: false })
  const outlined = applyRecipe(original, recipe, { font, outline: true })
  const editMs = performance.now() - t0
  const remix = await pipeline(edited, outlined)
  const total = editMs + remix.originalsMs + remix.derivedMs
  console.log(`\nA remix of ${mascot.slug} (recolour, caption, speed 1.5x, mirror), edit to all files ready, in the render worker:`)
  console.log(`  frames                               ${pad(remix.originals.frames, 8)}      (original ${before.originals.frames})`)
  console.log(`  recipe applied (plain and outlined)  ${pad(editMs.toFixed(1), 8)} ms`)
  console.log(
    `  GIF + APNG                           ${pad(Math.round(remix.originalsMs), 8)} ms   (original ${Math.round(before.originalsMs)} ms)`,
  )
  console.log(
    `  previews + exports                   ${pad(Math.round(remix.derivedMs), 8)} ms   (original ${Math.round(before.derivedMs)} ms)`,
  )
  console.log(
    `  total                                ${pad(Math.round(total), 8)} ms   (original ${Math.round(before.originalsMs + before.derivedMs)} ms)`,
  )
  console.log(`  ${'file'.padEnd(28)}${pad('original', 10)}${pad('remix', 10)}`)
  const row = (label: string, a: number | undefined, b: number | undefined) =>
    console.log(`  ${label.padEnd(28)}${pad(a === undefined ? 'none' : kb(a), 10)}${pad(b === undefined ? 'none' : kb(b), 10)}`)
  row('GIF', before.originals.gif.length, remix.originals.gif.length)
  row('APNG', before.originals.apng.length, remix.originals.apng.length)
  for (const p of shown)
    row(
      `${PLATFORM_RULES[p].label}${p === 'discord' ? '' : ' (remix outlined)'}`,
      fileBytes(before.derived, p),
      fileBytes(remix.derived, p),
    )
  await closeRenderPool()

  // The raster outline (outlined Lottie with image or text layers), on WhatsApp-size frames of the remix.
  const frames = (await renderLottie(edited, { size: 512 })).frames
  const t = performance.now()
  drawOutline(frames, 512, 512)
  console.log(
    `  raster outline fallback: ${((performance.now() - t) / frames.length).toFixed(1)} ms per 512x512 frame (${frames.length} frames)`,
  )
}

// 3. The product as `npm start` runs it on a fresh data folder.
const server = await buildAndServe()
const browser = await launchBrowser()
try {
  const derivedMs = await waitForDerivedMedia(server.baseURL)
  console.log(
    `\nFirst start (fresh data, demo seed): ready after ${(server.readyMs / 1000).toFixed(1)} s (Auth emulator, seeding, server);`,
  )
  console.log(`  every preview and platform export made ${(derivedMs / 1000).toFixed(1)} s later, in the background`)

  console.log('\nHome page, first visit on a phone (375x812, empty cache, until the network is quiet):')
  for (const dpr of [1, 3]) {
    const visit = await measureFirstVisit(browser, server.baseURL, '/', dpr)
    const kinds = Object.entries(visit.byType)
      .sort((a, b) => b[1].bytes - a[1].bytes)
      .map(([type, { requests, bytes }]) => `${type} ${requests}x ${kb(bytes)}`)
      .join(', ')
    console.log(
      `  device pixel ratio ${dpr}: page ${kb(visit.pageBytes)} (${kinds}); in all on the wire, the service worker and what it keeps included: ${kb(visit.totalBytes)} (aim 600 KB)`,
    )
  }
} finally {
  await browser.close()
  await server.stop()
}
