// A caption on a sticker: the text set in a shipped font and turned into vector paths (Telegram refuses
// text layers), white with a dark stroke so it reads on any drawing, on a layer of its own above the
// scene, there from the first frame to the last.
import { cloneLottie, type Json, type Lottie } from './lottie-walk'

export const CAPTION_MAX = 40
export const CAPTION_POSITIONS = ['top', 'bottom'] as const
export type CaptionPosition = (typeof CAPTION_POSITIONS)[number]

/** A drawing command of a text outline, in opentype.js's shape (y downwards). */
export interface PathCommand {
  type: 'M' | 'L' | 'Q' | 'C' | 'Z'
  x?: number
  y?: number
  x1?: number
  y1?: number
  x2?: number
  y2?: number
}

/** What the caption needs of a font (an opentype.js Font has it). */
export interface CaptionFont {
  /** The outline of `text` at `size` px, its baseline starting at (x, y). */
  getPath(text: string, x: number, y: number, size: number): { commands: PathCommand[] }
  getAdvanceWidth(text: string, size: number): number
}

const FILL = [1, 1, 1, 1]
const STROKE = [0.106, 0.082, 0.188, 1]
/** Sizes as fractions of the canvas: the text's largest size, smallest one-line size, margin and width. */
const SIZE = 0.15
const ONE_LINE_MIN = 0.09
const MARGIN = 0.05
const WIDTH = 0.9
/** Of the font size: how far capitals rise above the baseline, descenders drop below it, and the stroke. */
const ASCENT = 0.75
const DESCENT = 0.22
const STROKE_WIDTH = 0.16
const LINE_HEIGHT = 1.05

type Vec = [number, number]
type Contour = { v: Vec[]; i: Vec[]; o: Vec[] }

/** The text in one line, or two split at the space nearest the middle when one line would be too small. */
function lines(text: string, font: CaptionFont, width: number, height: number): { lines: string[]; size: number } {
  const fit = (parts: string[]) =>
    Math.min(SIZE * height, ...parts.map((part) => (WIDTH * width) / Math.max(1e-6, font.getAdvanceWidth(part, 1))))
  const one = [text]
  const spaces = [...text.matchAll(/ /g)].map((match) => match.index)
  if (fit(one) >= ONE_LINE_MIN * height || spaces.length === 0) return { lines: one, size: fit(one) }
  const middle = spaces.reduce((best, at) => (Math.abs(at - text.length / 2) < Math.abs(best - text.length / 2) ? at : best))
  const two = [text.slice(0, middle).trim(), text.slice(middle + 1).trim()]
  return fit(two) > fit(one) ? { lines: two, size: fit(two) } : { lines: one, size: fit(one) }
}

/** Lottie bezier contours from path commands (quadratic curves become cubic ones). */
function contours(commands: PathCommand[]): Contour[] {
  const result: Contour[] = []
  let current: Contour | undefined
  const last = () => current!.v[current!.v.length - 1]!
  for (const command of commands) {
    const to: Vec = [command.x ?? 0, command.y ?? 0]
    if (command.type === 'M') {
      current = { v: [to], i: [[0, 0]], o: [[0, 0]] }
      result.push(current)
    } else if (!current) {
      continue
    } else if (command.type === 'L' || command.type === 'Q' || command.type === 'C') {
      const from = last()
      let c1: Vec = from
      let c2: Vec = to
      if (command.type === 'Q') {
        const q: Vec = [command.x1 ?? 0, command.y1 ?? 0]
        c1 = [from[0] + (2 / 3) * (q[0] - from[0]), from[1] + (2 / 3) * (q[1] - from[1])]
        c2 = [to[0] + (2 / 3) * (q[0] - to[0]), to[1] + (2 / 3) * (q[1] - to[1])]
      } else if (command.type === 'C') {
        c1 = [command.x1 ?? 0, command.y1 ?? 0]
        c2 = [command.x2 ?? 0, command.y2 ?? 0]
      }
      current.o[current.o.length - 1] = [c1[0] - from[0], c1[1] - from[1]]
      current.v.push(to)
      current.i.push([c2[0] - to[0], c2[1] - to[1]])
      current.o.push([0, 0])
    } else if (command.type === 'Z') {
      // A contour that ends where it began: the last point is the first one.
      const first = current.v[0]!
      const end = last()
      if (current.v.length > 1 && Math.abs(end[0] - first[0]) < 1e-6 && Math.abs(end[1] - first[1]) < 1e-6) {
        current.i[0] = current.i.pop()!
        current.v.pop()
        current.o.pop()
      }
      current = undefined
    }
  }
  return result.filter((contour) => contour.v.length > 1)
}

const still = (k: unknown) => ({ a: 0, k })

/** A copy of the animation with the caption on top (the text trimmed; empty text adds nothing). */
export function withCaption<T extends Lottie>(lottie: T, caption: { text: string; position: CaptionPosition }, font: CaptionFont): T {
  const copy = cloneLottie(lottie)
  const text = caption.text.trim().slice(0, CAPTION_MAX)
  if (!text) return copy
  const { lines: rows, size } = lines(text, font, copy.w, copy.h)
  const lineHeight = size * LINE_HEIGHT
  const margin = MARGIN * copy.h
  const firstBaseline =
    caption.position === 'top' ? margin + size * ASCENT : copy.h - margin - size * DESCENT - lineHeight * (rows.length - 1)
  const shapes: Json[] = []
  rows.forEach((row, n) => {
    const x = (copy.w - font.getAdvanceWidth(row, size)) / 2
    const paths = contours(font.getPath(row, x, firstBaseline + n * lineHeight, size).commands).map((contour) => ({
      ty: 'sh',
      ks: still({ c: true, v: contour.v, i: contour.i, o: contour.o }),
    }))
    shapes.push({
      ty: 'gr',
      nm: `caption line ${n + 1}`,
      it: [
        ...paths,
        // Painted in list order from the top: the fill covers the inner half of the stroke.
        { ty: 'fl', c: still(FILL), o: still(100), r: 1 },
        { ty: 'st', c: still(STROKE), o: still(100), w: still(size * STROKE_WIDTH), lc: 2, lj: 2 },
        { ty: 'tr', p: still([0, 0]), a: still([0, 0]), s: still([100, 100]), r: still(0), o: still(100) },
      ],
    })
  })
  const index = Math.max(0, ...copy.layers.map((layer) => (typeof layer.ind === 'number' ? layer.ind : 0))) + 1
  copy.layers.unshift({
    ddd: 0,
    ind: index,
    ty: 4,
    nm: 'caption',
    sr: 1,
    ao: 0,
    ks: { o: still(100), r: still(0), p: still([0, 0, 0]), a: still([0, 0, 0]), s: still([100, 100, 100]) },
    shapes,
    ip: copy.ip,
    op: copy.op,
    st: 0,
    bm: 0,
  })
  return copy
}
