// The page of `npm run bench:players` (bench/lottie-players.ts bundles it with esbuild, one chunk per player):
// the demo Lottie JSONs in a 4x3 grid of 300x300 boxes, all played looping by one player, chosen in the query:
//   ?player=none|svg|canvas|dotlottie|dotlottie-worker  which player (none: empty boxes, the reference)
//   &subframe=0                                         lottie-web: setSubframe(false); dotLottie: no frame interpolation
//   &frame=N                                            stop every animation at frame N instead of playing (fidelity)
// The page counts the frames each player draws and sets `window.benchPage.ready` once all 12 draw.

export type PlayerName = 'none' | 'svg' | 'canvas' | 'dotlottie' | 'dotlottie-worker'

export interface BenchPageState {
  ready: boolean
  error: string | null
  /** Distinct frames each card's player has drawn so far. */
  drawn: number[]
  /** Counts requestAnimationFrame callbacks on the main thread for `ms`, per second. */
  rafRate(ms: number): Promise<number>
}

declare global {
  interface Window {
    benchPage: BenchPageState
  }
}

const grid = document.getElementById('grid')!
/** The bench puts the number of cards in the grid's data-cards; the boxes' size is in the page's CSS. */
const CARDS = Number(grid.dataset.cards)
const params = new URLSearchParams(location.search)
const player = (params.get('player') ?? 'none') as PlayerName
const subframe = params.get('subframe') !== '0'
const stopAt = params.has('frame') ? Number(params.get('frame')) : null

const state: BenchPageState = {
  ready: false,
  error: null,
  drawn: Array.from({ length: CARDS }, () => 0),
  rafRate: (ms) =>
    new Promise((resolve) => {
      let frames = 0
      const started = performance.now()
      const tick = (now: number) => {
        frames++
        if (now - started < ms) requestAnimationFrame(tick)
        else resolve((frames * 1000) / (now - started))
      }
      requestAnimationFrame(tick)
    }),
}
window.benchPage = state

const lastFrame: number[] = Array.from({ length: CARDS }, () => Number.NaN)
/** A card's player drew `frame`: counted when it differs from the last one drawn. */
function drew(card: number, frame: number): void {
  if (frame === lastFrame[card]) return
  lastFrame[card] = frame
  state.drawn[card]!++
  // Playing: ready once every card has drawn a few frames. Stopped: once every card drew the frame asked for.
  const done = stopAt === null ? state.drawn.every((count) => count >= 3) : lastFrame.every((last) => last === stopAt)
  if (done) state.ready = true
}

async function lottieWeb(boxes: HTMLElement[], data: object[], renderer: 'svg' | 'canvas'): Promise<void> {
  const lottie =
    renderer === 'svg'
      ? (await import('lottie-web/build/player/lottie_light')).default
      : (await import('lottie-web/build/player/lottie_light_canvas')).default
  boxes.forEach((box, card) => {
    const common = { container: box, loop: true, autoplay: stopAt === null, animationData: data[card] }
    const anim =
      renderer === 'svg'
        ? lottie.loadAnimation({ ...common, renderer })
        : // The canvas renderer sizes its canvas to the box times this.
          lottie.loadAnimation({ ...common, renderer, rendererSettings: { dpr: devicePixelRatio } })
    anim.setSubframe(subframe)
    // Fired after each render call; the renderer skips a frame equal to the last one drawn.
    anim.addEventListener('drawnFrame', () => drew(card, anim.currentFrame))
    anim.addEventListener('data_failed', () => (state.error = `card ${card}: data failed`))
    anim.addEventListener('error', () => (state.error = `card ${card}: render error`))
    if (stopAt !== null) anim.addEventListener('DOMLoaded', () => anim.goToAndStop(stopAt, true))
  })
}

async function dotLottie(boxes: HTMLElement[], data: object[], worker: boolean): Promise<void> {
  const { DotLottie, DotLottieWorker } = await import('@lottiefiles/dotlottie-web')
  const Player = worker ? DotLottieWorker : DotLottie
  Player.setWasmUrl('/dotlottie-player.wasm')
  boxes.forEach((box, card) => {
    const canvas = document.createElement('canvas')
    // Its own default is 1 + (devicePixelRatio - 1) * 0.75; the full ratio draws as sharp as the other players.
    canvas.width = box.clientWidth * devicePixelRatio
    canvas.height = box.clientHeight * devicePixelRatio
    box.append(canvas)
    const player = new Player({
      canvas,
      data: data[card] as Record<string, unknown>,
      loop: true,
      autoplay: stopAt === null,
      useFrameInterpolation: subframe,
      renderConfig: { devicePixelRatio },
    })
    player.addEventListener('render', (event) => drew(card, event.currentFrame))
    player.addEventListener('loadError', (event) => (state.error = `card ${card}: ${event.error.message}`))
    player.addEventListener('renderError', () => (state.error = `card ${card}: render error`))
    if (stopAt !== null) player.addEventListener('load', () => void player.setFrame(stopAt))
  })
}

async function main(): Promise<void> {
  const boxes = Array.from({ length: CARDS }, (_, card) => {
    const box = document.createElement('div')
    box.className = 'box'
    box.id = `box-${card}`
    grid.append(box)
    return box
  })
  const data = await Promise.all(
    boxes.map(async (_, card) => {
      const response = await fetch(`/lottie/${card}.json`)
      if (!response.ok) throw new Error(`/lottie/${card}.json: ${response.status}`)
      return (await response.json()) as object
    }),
  )
  switch (player) {
    case 'none':
      state.ready = true
      return
    case 'svg':
    case 'canvas':
      return lottieWeb(boxes, data, player)
    case 'dotlottie':
    case 'dotlottie-worker':
      return dotLottie(boxes, data, player === 'dotlottie-worker')
    default:
      throw new Error(`unknown player ${String(player)}`)
  }
}

main().catch((error: unknown) => (state.error = String(error)))
