// A GIF decoder for tests, written from the GIF89a specification and sharing no code with the
// encoder: block walk, LZW, frame placement, transparency and disposal (none, background, previous).

export interface GifFrameControl {
  x: number
  y: number
  w: number
  h: number
  delayCs: number
  dispose: number
  transparentIndex: number | null
  localPalette: boolean
}

export interface DecodedGif {
  width: number
  height: number
  /** Global colour table entries. */
  paletteSize: number
  /** NETSCAPE2.0 loop count as written (0 = forever), or null without the extension. */
  loop: number | null
  controls: GifFrameControl[]
  /** The screen after each frame, straight RGBA (transparent where nothing was drawn). */
  frames: Uint8Array[]
}

export function decodeGif(bytes: Uint8Array): DecodedGif {
  const ascii = (from: number, n: number) => String.fromCharCode(...bytes.subarray(from, from + n))
  const u16le = (at: number) => bytes[at]! | (bytes[at + 1]! << 8)
  if (ascii(0, 6) !== 'GIF89a' && ascii(0, 6) !== 'GIF87a') throw new Error('not a GIF')
  const width = u16le(6)
  const height = u16le(8)
  const packed = bytes[10]!
  let pos = 13
  const readTable = (flags: number) => {
    const n = 1 << ((flags & 7) + 1)
    const table = Array.from({ length: n }, (_, i) => Array.from(bytes.subarray(pos + i * 3, pos + i * 3 + 3)))
    pos += n * 3
    return table
  }
  const globalTable = packed & 0x80 ? readTable(packed) : []
  let loop: number | null = null
  const controls: GifFrameControl[] = []
  const frames: Uint8Array[] = []
  const screen = new Uint8Array(width * height * 4)
  let gce = { delayCs: 0, dispose: 0, transparentIndex: null as number | null }
  const subBlocks = () => {
    const parts: number[] = []
    while (bytes[pos] !== 0) {
      const n = bytes[pos]!
      if (pos + 1 + n > bytes.length) throw new Error('truncated')
      for (let i = 0; i < n; i++) parts.push(bytes[pos + 1 + i]!)
      pos += n + 1
    }
    pos++
    return Uint8Array.from(parts)
  }
  for (;;) {
    const block = bytes[pos++]
    if (block === 0x3b) break
    if (block === 0x21) {
      const label = bytes[pos++]
      if (label === 0xf9) {
        const flags = bytes[pos + 1]!
        gce = { delayCs: u16le(pos + 2), dispose: (flags >> 2) & 7, transparentIndex: flags & 1 ? bytes[pos + 4]! : null }
        pos += 6
      } else if (label === 0xff) {
        const app = ascii(pos + 1, 11)
        pos += 12
        const data = subBlocks()
        if (app === 'NETSCAPE2.0') loop = data[1]! | (data[2]! << 8)
      } else {
        subBlocks()
      }
    } else if (block === 0x2c) {
      const x = u16le(pos)
      const y = u16le(pos + 2)
      const w = u16le(pos + 4)
      const h = u16le(pos + 6)
      const flags = bytes[pos + 8]!
      pos += 9
      const table = flags & 0x80 ? readTable(flags) : globalTable
      if (flags & 0x40) throw new Error('interlaced frames are not supported here')
      const minCode = bytes[pos++]!
      const indices = lzwDecode(minCode, subBlocks(), w * h)
      if (x + w > width || y + h > height) throw new Error('frame outside the screen')
      const control = { x, y, w, h, ...gce, localPalette: Boolean(flags & 0x80) }
      controls.push(control)
      const before = screen.slice()
      for (let row = 0; row < h; row++) {
        for (let col = 0; col < w; col++) {
          const index = indices[row * w + col]!
          if (index === gce.transparentIndex) continue
          const rgb = table[index]
          if (!rgb) throw new Error(`index ${index} outside the colour table`)
          screen.set([...rgb, 255], ((y + row) * width + x + col) * 4)
        }
      }
      frames.push(screen.slice())
      if (gce.dispose === 2) for (let row = 0; row < h; row++) screen.fill(0, ((y + row) * width + x) * 4, ((y + row) * width + x + w) * 4)
      if (gce.dispose === 3) screen.set(before)
      gce = { delayCs: 0, dispose: 0, transparentIndex: null }
    } else {
      throw new Error(`unexpected block ${block} at ${pos - 1}`)
    }
  }
  return { width, height, paletteSize: globalTable.length, loop, controls, frames }
}

function lzwDecode(minCode: number, data: Uint8Array, count: number): Uint8Array {
  const out = new Uint8Array(count)
  const clear = 1 << minCode
  let size = minCode + 1
  let dict: number[][] = []
  const reset = () => {
    dict = Array.from({ length: clear + 2 }, (_, i) => [i])
    size = minCode + 1
  }
  reset()
  let bit = 0
  let n = 0
  let prev: number[] | null = null
  while (n < count && bit + size <= data.length * 8) {
    let code = 0
    for (let i = 0; i < size; i++, bit++) code |= ((data[bit >> 3]! >> (bit & 7)) & 1) << i
    if (code === clear) {
      reset()
      prev = null
      continue
    }
    if (code === clear + 1) break
    const entry: number[] = code < dict.length ? dict[code]! : [...prev!, prev![0]!]
    for (const v of entry) if (n < count) out[n++] = v
    if (prev && dict.length < 4096) dict.push([...prev, entry[0]!])
    if (dict.length === 1 << size && size < 12) size++
    prev = entry
  }
  if (n < count) throw new Error(`LZW data ended after ${n} of ${count} pixels`)
  return out
}
