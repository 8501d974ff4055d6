// The demo gallery: a dozen original wumpus mascots, rendered to GIF, APNG and Lottie JSON.
import type { Mascot } from './mascots/body'
import { blinking } from './mascots/blinking'
import { bouncing } from './mascots/bouncing'
import { cheering } from './mascots/cheering'
import { dancing } from './mascots/dancing'
import { dizzy } from './mascots/dizzy'
import { jumping } from './mascots/jumping'
import { lovestruck } from './mascots/lovestruck'
import { shivering } from './mascots/shivering'
import { sleeping } from './mascots/sleeping'
import { spinning } from './mascots/spinning'
import { waving } from './mascots/waving'
import { yawning } from './mascots/yawning'
import { lottieBytes } from '../encode/lottie-json'
import { renderAnimation } from '../render/render-pool'

export type DemoMascot = Mascot

export interface DemoFile {
  bytes: Uint8Array
  filename: string
}

export interface RenderedDemo {
  slug: string
  name: string
  description: string
  tags: string[]
  emoji: string[]
  keywords: string[]
  files: { gif: DemoFile; apng: DemoFile; lottie: DemoFile }
}

/** The demo mascots in gallery order. */
export function demoMascots(): DemoMascot[] {
  return [waving, bouncing, blinking, spinning, jumping, dancing, sleeping, cheering, lovestruck, dizzy, shivering, yawning]
}

/** Renders every demo mascot in the shared worker, one after another (its queue is bounded). */
export async function renderDemoSet(): Promise<RenderedDemo[]> {
  const rendered: RenderedDemo[] = []
  for (const m of demoMascots()) {
    const out = await renderAnimation(m.lottie)
    rendered.push({
      slug: m.slug,
      name: m.name,
      description: m.description,
      tags: m.tags,
      emoji: m.emoji,
      keywords: m.keywords,
      files: {
        gif: { bytes: out.gif, filename: `${m.slug}.gif` },
        apng: { bytes: out.apng, filename: `${m.slug}.png` },
        lottie: { bytes: lottieBytes(m.lottie), filename: `${m.slug}.json` },
      },
    })
  }
  return rendered
}
