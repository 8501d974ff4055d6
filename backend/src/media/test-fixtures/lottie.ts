/** A small but real Lottie animation (one shape layer: a bouncing circle), as an object or bytes. */
export function lottie(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    v: '5.7.4',
    fr: 30,
    ip: 0,
    op: 60,
    w: 320,
    h: 320,
    nm: 'bounce',
    ddd: 0,
    assets: [],
    layers: [
      {
        ddd: 0,
        ind: 1,
        ty: 4,
        nm: 'ball',
        sr: 1,
        ks: {
          o: { a: 0, k: 100 },
          r: { a: 0, k: 0 },
          p: {
            a: 1,
            k: [
              { t: 0, s: [160, 80, 0], i: { x: [0.5], y: [1] }, o: { x: [0.5], y: [0] } },
              { t: 30, s: [160, 240, 0], i: { x: [0.5], y: [1] }, o: { x: [0.5], y: [0] } },
              { t: 60, s: [160, 80, 0] },
            ],
          },
          a: { a: 0, k: [0, 0, 0] },
          s: { a: 0, k: [100, 100, 100] },
        },
        shapes: [
          { ty: 'el', nm: 'circle', p: { a: 0, k: [0, 0] }, s: { a: 0, k: [80, 80] } },
          { ty: 'fl', nm: 'fill', c: { a: 0, k: [0.35, 0.4, 0.95, 1] }, o: { a: 0, k: 100 } },
        ],
        ip: 0,
        op: 60,
        st: 0,
        bm: 0,
      },
    ],
    ...overrides,
  }
}

export const utf8 = (text: string) => new TextEncoder().encode(text)

export const lottieBytes = (overrides?: Record<string, unknown>) => utf8(JSON.stringify(lottie(overrides)))

/**
 * A Lottie that is hard to compress: 150 small discs in many colours and two gradient-filled
 * blobs, every one moving its own way for 2 s at 30 fps. Its files miss the platforms' caps at first.
 */
export function heavyLottie(seed = 7): Record<string, unknown> {
  let state = seed
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648
    return state / 2147483648
  }
  const still = (k: unknown) => ({ a: 0, k })
  const moving = (from: number[], to: number[]) => ({
    a: 1,
    k: [
      { t: 0, s: from, i: { x: [0.5], y: [1] }, o: { x: [0.5], y: [0] } },
      { t: 30, s: to, i: { x: [0.5], y: [1] }, o: { x: [0.5], y: [0] } },
      { t: 60, s: from },
    ],
  })
  const discs = Array.from({ length: 150 }, () => {
    const at = [random() * 512, random() * 512]
    return {
      ty: 'gr',
      it: [
        { ty: 'el', p: still([0, 0]), s: still([8 + random() * 30, 8 + random() * 30]) },
        { ty: 'fl', c: still([random(), random(), random(), 1]), o: still(60 + random() * 40) },
        {
          ty: 'tr',
          p: moving(at, [at[0]! + (random() - 0.5) * 200, at[1]! + (random() - 0.5) * 200]),
          a: still([0, 0]),
          s: still([100, 100]),
          r: moving([0], [random() * 360]),
          o: still(100),
        },
      ],
    }
  })
  const gradient = (at: number[]) => ({
    ty: 'gr',
    it: [
      { ty: 'el', p: still([0, 0]), s: still([300, 300]) },
      {
        ty: 'gf',
        t: 2,
        s: still([0, 0]),
        e: still([150, 0]),
        g: { p: 3, k: still([0, 1, 0.2, 0.1, 0.5, 0.1, 0.9, 0.3, 1, 0.2, 0.3, 1]) },
        o: still(90),
        r: 1,
      },
      { ty: 'tr', p: moving(at, [512 - at[0]!, 512 - at[1]!]), a: still([0, 0]), s: still([100, 100]), r: still(0), o: still(100) },
    ],
  })
  return lottie({
    w: 512,
    h: 512,
    nm: 'heavy',
    layers: [
      {
        ddd: 0,
        ind: 1,
        ty: 4,
        nm: 'storm',
        sr: 1,
        ks: { o: still(100), r: still(0), p: still([0, 0]), a: still([0, 0]), s: still([100, 100]) },
        ao: 0,
        shapes: [...discs, gradient([120, 140]), gradient([380, 300])],
        ip: 0,
        op: 60,
        st: 0,
        bm: 0,
      },
    ],
  })
}
