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
