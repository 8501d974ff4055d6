import { describe, expect, it } from 'vitest'
import {
  MAX_LOTTIE_EFFECTS,
  MAX_LOTTIE_GRADIENT_STOPS,
  MAX_LOTTIE_IMAGES,
  MAX_LOTTIE_LAYERS,
  MAX_LOTTIE_PRECOMP_DEPTH,
  MAX_LOTTIE_SHAPES,
  MAX_MEDIA_DIMENSION,
  MAX_MEDIA_FRAMES,
} from '../../../../contract/limits'
import { inspectLottie } from './inspect-lottie'
import { bytes, mediaErrorOf } from '../../../test/fixtures/bytes'
import { lottie, lottieBytes, utf8 } from '../../../test/fixtures/lottie'
import { stillPng } from '../../../test/fixtures/png'

const codeOf = (file: Uint8Array) => mediaErrorOf(() => inspectLottie(file)).code

describe('inspectLottie', () => {
  it('reads size, frames and duration from a Lottie animation', () => {
    const file = lottieBytes({ fr: 30, ip: 0, op: 90, w: 512, h: 256 })
    expect(inspectLottie(file)).toEqual({
      format: 'lottie',
      contentType: 'application/json',
      width: 512,
      height: 256,
      frames: 90,
      durationMs: 3000,
      loop: 0,
      bytes: file.length,
    })
  })

  it('accepts a numeric version, a non-zero in point, fractional points and pretty printing', () => {
    const file = utf8(`\n  ${JSON.stringify(lottie({ v: 5, ip: 10, op: 39.5, fr: 29.97 }), null, 2)}\n`)
    expect(inspectLottie(file)).toMatchObject({ frames: 30, durationMs: 984 })
  })

  it('accepts "__proto__" as a string value: only keys are refused', () => {
    const file = lottieBytes({ nm: '__proto__ constructor prototype' })
    expect(inspectLottie(file).format).toBe('lottie')
  })

  it.each([
    ['a cut file', lottieBytes().subarray(0, 50)],
    ['content after the JSON value', bytes(lottieBytes(), '{}')],
    ['a prefix before the JSON value', bytes('callback(', lottieBytes(), ')')],
    ['a PNG', stillPng()],
    ['invalid UTF-8', bytes('{"nm":"', [0xc3, 0x28], '"}')],
    ['a BOM before the JSON', bytes([0xef, 0xbb, 0xbf], lottieBytes())],
  ])('refuses %s as INVALID_JSON', (_, file) => {
    expect(codeOf(file)).toBe('INVALID_JSON')
  })

  it('refuses a BOM followed by binary data as POLYGLOT and no bytes as EMPTY', () => {
    expect(codeOf(bytes([0xef, 0xbb, 0xbf], stillPng()))).toBe('POLYGLOT')
    expect(codeOf(new Uint8Array())).toBe('EMPTY')
  })

  it.each([
    ['an array', utf8('[{"v":"5.7.4"}]')],
    ['a number', utf8('42')],
    ['null', utf8('null')],
    ['a missing version', lottieBytes({ v: undefined })],
    ['a version that is not a version', lottieBytes({ v: 'latest' })],
    ['a missing frame rate', lottieBytes({ fr: undefined })],
    ['a frame rate of 0', lottieBytes({ fr: 0 })],
    ['a string frame rate', lottieBytes({ fr: '30' })],
    ['a missing in point', lottieBytes({ ip: undefined })],
    ['a missing out point', lottieBytes({ op: undefined })],
    ['op equal to ip', lottieBytes({ ip: 10, op: 10 })],
    ['op before ip', lottieBytes({ ip: 10, op: 5 })],
    ['a width of 0', lottieBytes({ w: 0 })],
    ['a negative height', lottieBytes({ h: -1 })],
    ['a fractional width', lottieBytes({ w: 10.5 })],
    ['missing layers', lottieBytes({ layers: undefined })],
    ['layers that are not an array', lottieBytes({ layers: {} })],
    ['a layer that is not an object', lottieBytes({ layers: [1] })],
  ])('refuses %s as NOT_LOTTIE', (_, file) => {
    expect(codeOf(file)).toBe('NOT_LOTTIE')
  })

  it('refuses sizes and frame counts above the limits as TOO_LARGE', () => {
    expect(codeOf(lottieBytes({ w: MAX_MEDIA_DIMENSION + 1 }))).toBe('TOO_LARGE')
    expect(codeOf(lottieBytes({ w: 1e12, h: 1e12 }))).toBe('TOO_LARGE')
    expect(codeOf(lottieBytes({ ip: 0, op: MAX_MEDIA_FRAMES + 1 }))).toBe('TOO_LARGE')
    expect(inspectLottie(lottieBytes({ ip: 0, op: MAX_MEDIA_FRAMES })).frames).toBe(MAX_MEDIA_FRAMES)
  })

  describe('complexity limits (TOO_COMPLEX, with what was counted)', () => {
    const layer = (extra: Record<string, unknown> = {}) => ({ ...(lottie().layers as object[])[0], ...extra })
    const precomp = (id: string, layers: unknown[]) => ({ id, layers })
    const detailsOf = (file: Uint8Array) => mediaErrorOf(() => inspectLottie(file)).details

    it('accepts an animation at the limits', () => {
      const images = Array.from({ length: MAX_LOTTIE_IMAGES }, (_, i) => ({
        id: `img${i}`,
        w: 1,
        h: 1,
        u: '',
        p: 'data:image/png;base64,AA==',
      }))
      expect(inspectLottie(lottieBytes({ layers: Array.from({ length: MAX_LOTTIE_LAYERS }, () => layer()), assets: images })).format).toBe(
        'lottie',
      )
    })

    it('refuses too many layers, counting those inside precompositions each time they are used', () => {
      expect(detailsOf(lottieBytes({ layers: Array.from({ length: MAX_LOTTIE_LAYERS + 1 }, () => layer()) }))).toMatchObject({
        what: 'layers',
        max: MAX_LOTTIE_LAYERS,
      })
      // 40 layers using a precomposition of 40 layers: 1,640 layers to draw in a 41-layer file.
      const inner = precomp(
        'inner',
        Array.from({ length: 40 }, () => layer()),
      )
      const outer = Array.from({ length: 40 }, () => layer({ ty: 0, refId: 'inner' }))
      expect(codeOf(lottieBytes({ layers: outer, assets: [inner] }))).toBe('TOO_COMPLEX')
    })

    it('refuses precompositions nested too deep, or in a cycle', () => {
      const chain = Array.from({ length: MAX_LOTTIE_PRECOMP_DEPTH + 1 }, (_, i) => precomp(`p${i}`, [layer({ ty: 0, refId: `p${i + 1}` })]))
      expect(detailsOf(lottieBytes({ layers: [layer({ ty: 0, refId: 'p0' })], assets: chain }))).toMatchObject({
        what: 'precomposition depth',
      })
      const cycle = [precomp('a', [layer({ ty: 0, refId: 'b' })]), precomp('b', [layer({ ty: 0, refId: 'a' })])]
      expect(codeOf(lottieBytes({ layers: [layer({ ty: 0, refId: 'a' })], assets: cycle }))).toBe('TOO_COMPLEX')
    })

    it('refuses too many shapes (groups included) and too many images', () => {
      const group = {
        ty: 'gr',
        it: Array.from({ length: MAX_LOTTIE_SHAPES }, () => ({ ty: 'el', p: { a: 0, k: [0, 0] }, s: { a: 0, k: [1, 1] } })),
      }
      expect(detailsOf(lottieBytes({ layers: [layer({ shapes: [group] })] }))).toMatchObject({ what: 'shapes', max: MAX_LOTTIE_SHAPES })
      const images = Array.from({ length: MAX_LOTTIE_IMAGES + 1 }, (_, i) => ({
        id: `img${i}`,
        w: 1,
        h: 1,
        u: '',
        p: 'data:image/png;base64,AA==',
      }))
      expect(detailsOf(lottieBytes({ assets: images }))).toMatchObject({ what: 'images', count: MAX_LOTTIE_IMAGES + 1 })
    })
  })

  describe('repeaters and effects (TOO_COMPLEX)', () => {
    const layer = (extra: Record<string, unknown> = {}) => ({ ...(lottie().layers as object[])[0], ...extra })
    const detailsOf = (file: Uint8Array) => mediaErrorOf(() => inspectLottie(file)).details
    const ellipse = { ty: 'el', p: { a: 0, k: [0, 0] }, s: { a: 0, k: [1, 1] } }
    const repeater = (copies: unknown) => ({ ty: 'rp', c: copies, o: { a: 0, k: 0 } })

    it('counts the shapes a repeater repeats once per copy, animated copies at their most', () => {
      expect(detailsOf(lottieBytes({ layers: [layer({ shapes: [ellipse, repeater({ a: 0, k: 30_000 })] })] }))).toMatchObject({
        what: 'shapes',
        max: MAX_LOTTIE_SHAPES,
      })
      const animated = repeater({
        a: 1,
        k: [
          { t: 0, s: [1] },
          { t: 30, s: [40_000] },
        ],
      })
      expect(detailsOf(lottieBytes({ layers: [layer({ shapes: [ellipse, animated] })] }))).toMatchObject({ what: 'shapes' })
      // Shapes after a repeater are not repeated by it.
      expect(inspectLottie(lottieBytes({ layers: [layer({ shapes: [repeater({ a: 0, k: 30_000 }), ellipse] })] })).format).toBe('lottie')
    })

    it('multiplies nested repeaters', () => {
      // 200 copies of a group holding 200 copies of an ellipse: 40,000 ellipses from a few hundred bytes.
      const inner = { ty: 'gr', it: [ellipse, repeater({ a: 0, k: 200 })] }
      expect(detailsOf(lottieBytes({ layers: [layer({ shapes: [inner, repeater({ a: 0, k: 200 })] })] }))).toMatchObject({ what: 'shapes' })
      const small = { ty: 'gr', it: [ellipse, repeater({ a: 0, k: 50 })] }
      expect(inspectLottie(lottieBytes({ layers: [layer({ shapes: [small, repeater({ a: 0, k: 50 })] })] })).format).toBe('lottie')
    })

    it("refuses too many effects, counting a precomposition's each time it is used", () => {
      const blur = { ty: 29, nm: 'Gaussian Blur', ef: [{ ty: 0, v: { a: 0, k: 50 } }] }
      const many = Array.from({ length: MAX_LOTTIE_EFFECTS + 1 }, () => blur)
      expect(detailsOf(lottieBytes({ layers: [layer({ ef: many })] }))).toMatchObject({ what: 'effects', max: MAX_LOTTIE_EFFECTS })
      const inner = { id: 'blurred', layers: [layer({ ef: Array.from({ length: 10 }, () => blur) })] }
      const uses = Array.from({ length: MAX_LOTTIE_EFFECTS / 10 + 1 }, () => layer({ ty: 0, refId: 'blurred' }))
      expect(detailsOf(lottieBytes({ layers: uses, assets: [inner] }))).toMatchObject({ what: 'effects' })
      expect(inspectLottie(lottieBytes({ layers: [layer({ ef: many.slice(1) })] })).format).toBe('lottie')
    })
  })

  describe('gradients (TOO_COMPLEX)', () => {
    const layer = (extra: Record<string, unknown> = {}) => ({ ...(lottie().layers as object[])[0], ...extra })
    const detailsOf = (file: Uint8Array) => mediaErrorOf(() => inspectLottie(file)).details
    const gradient = (stops: unknown, k: unknown) => ({
      ty: 'gf',
      o: { a: 0, k: 100 },
      s: { a: 0, k: [0, 0] },
      e: { a: 0, k: [1, 1] },
      t: 1,
      g: { p: stops, k },
    })
    const stopValues = (stops: number) => Array.from({ length: stops }, (_, i) => [i / Math.max(1, stops - 1), 1, 0.5, 0]).flat()
    const inGroup = (item: unknown) => lottieBytes({ layers: [layer({ shapes: [{ ty: 'gr', it: [item] }] })] })

    it('accepts gradients of up to the stop limit, opacity stops included, fixed or keyframed', () => {
      const stops = MAX_LOTTIE_GRADIENT_STOPS
      const withOpacity = [...stopValues(stops), ...Array.from({ length: stops }, (_, i) => [i / stops, 1]).flat()]
      expect(inspectLottie(inGroup(gradient(stops, { a: 0, k: withOpacity }))).format).toBe('lottie')
      const keyed = {
        a: 1,
        k: [
          { t: 0, s: stopValues(2) },
          { t: 30, s: stopValues(2) },
        ],
      }
      expect(inspectLottie(inGroup({ ...gradient(2, keyed), ty: 'gs' })).format).toBe('lottie')
    })

    it('refuses a gradient with too many stops, however few values it carries', () => {
      expect(detailsOf(inGroup(gradient(3_000_000, { a: 0, k: stopValues(2) })))).toMatchObject({
        what: 'gradient stops',
        count: 3_000_000,
        max: MAX_LOTTIE_GRADIENT_STOPS,
      })
      expect(detailsOf(inGroup(gradient('1e9', { a: 0, k: stopValues(2) })))).toMatchObject({ what: 'gradient stops' })
    })

    it('refuses gradient values longer than their stops have, fixed or in a keyframe', () => {
      expect(detailsOf(inGroup(gradient(2, { a: 0, k: stopValues(40) })))).toMatchObject({ what: 'gradient values', max: 12 })
      const keyed = {
        a: 1,
        k: [
          { t: 0, s: stopValues(2) },
          { t: 30, s: stopValues(5) },
        ],
      }
      expect(detailsOf(inGroup({ ...gradient(2, keyed), ty: 'gs' }))).toMatchObject({ what: 'gradient values' })
    })
  })

  describe('prototype pollution guard', () => {
    const withKey = (text: string) => utf8(JSON.stringify(lottie()).replace('"nm":"ball"', `"nm":"ball",${text}`))

    it.each([
      ['__proto__ at the top', utf8(JSON.stringify(lottie()).replace('{', '{"__proto__":{"admin":true},'))],
      ['__proto__ deep in a layer', withKey('"ks2":{"k":[{"__proto__":{"x":1}}]}')],
      ['__proto__ written with a \\u escape', withKey('"\\u005f_proto__":{}')],
      ['constructor.prototype', withKey('"constructor":{"prototype":{"x":1}}')],
    ])('refuses %s as NOT_LOTTIE', (_, file) => {
      const error = mediaErrorOf(() => inspectLottie(file))
      expect(error.code).toBe('NOT_LOTTIE')
      expect(String(error.details?.reason)).toMatch(/forbidden key/)
    })

    it('finds a forbidden key under very deep nesting without overflowing the stack', () => {
      const depth = 100_000
      const deep = `${'['.repeat(depth)}{"__proto__":1}${']'.repeat(depth)}`
      const error = mediaErrorOf(() => inspectLottie(withKey(`"meta":${deep}`)))
      expect(error.code).toBe('NOT_LOTTIE')
    })
  })
})
