// npm run bench:remix-cpu — where one remix's CPU goes: a demo mascot at speed 0.5 with a caption and
// the outline left to each app (so the outlined variant is made too), from edit to all files ready,
// as the render worker makes it (originals, then previews and platform exports), run in this process
// so process.cpuUsage counts it all (sharp's threads included). Prints the CPU seconds, the frames
// rendered and renderer calls, and each encoder's and each platform's time.
import { colourSlots } from '../contract/remix/colours'
import type { Lottie } from '../contract/remix/lottie-walk'
import { applyRecipe, recipeSchema } from '../contract/remix/recipe'
import { PLATFORM_RULES, PLATFORMS } from '../contract/stickers'
import { captionFont } from '../backend/src/media/render/caption-font'
import { demoMascots } from '../backend/src/media/demo/demo-set'
import { runDerive, runJob } from '../backend/src/media/render/media-worker'
import { mediaStats, resetMediaStats } from '../backend/src/media/render/render-stats'

const slug = process.argv[2] ?? 'waving-wumpus'
const mascot = demoMascots().find((m) => m.slug === slug)
if (!mascot) throw new Error(`no demo mascot ${slug}`)
const original = mascot.lottie as Lottie
const recipe = recipeSchema.parse({
  colours: { [colourSlots(original)[0]!.id]: '#e0457b' },
  caption: { text: 'gm friends', position: 'bottom' },
  speed: 0.5,
})
const font = captionFont()
const seconds = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1e6

// Warm up (WASM, sharp, fonts) on a tiny render; not counted.
await runJob({ id: 0, lottie: original, size: 16, fps: 1 })
resetMediaStats()

const cpu0 = process.cpuUsage()
const t0 = performance.now()
const edited = applyRecipe(original, recipe, { font, outline: false })
const outlined = applyRecipe(original, recipe, { font, outline: true })
const t1 = performance.now()
const originals = await runJob({ id: 1, lottie: edited })
const t2 = performance.now()
const cpu2 = process.cpuUsage(cpu0)
const derived = await runDerive({ lottie: edited, outlined })
const t3 = performance.now()
const cpu = process.cpuUsage(cpu0)

const ms = (n: number) => `${Math.round(n)} ms`.padStart(9)
console.log(`A remix of ${slug} (recolour, caption, speed 0.5, outline left open), edit to all files ready, in one thread:`)
console.log(`  CPU (user + system, sharp's threads included)  ${seconds(cpu).toFixed(1)} s   (originals ${seconds(cpu2).toFixed(1)} s)`)
console.log(`  wall: recipe ${ms(t1 - t0)}, originals ${ms(t2 - t1)}, previews + exports ${ms(t3 - t2)}, total ${ms(t3 - t0)}`)
console.log(
  `  frames rendered per sticker ${mediaStats.framesRendered} in ${mediaStats.renders} renderer calls (${originals.frames} frames in the animation), ${mediaStats.derived} sequences picked from them`,
)
console.log(`  rendering ${ms(mediaStats.renderMs)}`)
for (const kind of Object.keys(mediaStats.encodes).sort())
  console.log(
    `  ${kind.padEnd(9)} ${ms(mediaStats.encodeMs[kind]!)} in ${mediaStats.encodes[kind]} encodes${kind === 'quantize' ? ' (inside the GIF, APNG and WebP times)' : ''}`,
  )
console.log(`  previews ${ms(derived.timings.previews)}`)
for (const p of PLATFORMS) {
  const e = derived.exports.find((x) => x.platform === p)!
  console.log(
    `  ${PLATFORM_RULES[p].label.padEnd(15)}${ms(derived.timings[p])}  ${e.file ? `${(e.file.bytes.length / 1000).toFixed(1)} KB` : 'none'}  ${e.notes.join('; ')}`,
  )
}
console.log('  size ladder steps (render or pick, then encode), in order:')
for (const s of mediaStats.steps)
  console.log(
    `    ${s.target.padEnd(16)}${s.step.padEnd(46)}${ms(s.ms)} ${(s.bytes / 1000).toFixed(1).padStart(7)} KB ${s.fits ? 'fits' : 'over'}`,
  )
