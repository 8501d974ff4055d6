// A tar archive (POSIX ustar) written entry by entry, for Mastodon's `tootctl emoji import`, which reads a
// tar.gz with Ruby's Gem::Package::TarReader. Only what we need: regular files with short ASCII names.

const BLOCK = 512

/** One regular file of the archive; `read` gives its bytes when its turn comes (one file in memory at a time). */
export interface TarEntry {
  name: string
  size: number
  mtime: Date
  read: () => Promise<Uint8Array>
}

function octal(value: number, width: number): string {
  // `width - 1` octal digits and a NUL, as ustar fields are.
  return `${value.toString(8).padStart(width - 1, '0')}\0`
}

/** The 512-byte header of a regular file. */
export function tarHeader(entry: Pick<TarEntry, 'name' | 'size' | 'mtime'>): Buffer {
  if (!/^[\x21-\x7e]{1,100}$/.test(entry.name)) throw new Error(`tar entry name not supported: ${entry.name}`)
  const header = Buffer.alloc(BLOCK)
  const put = (text: string, offset: number) => header.write(text, offset, 'ascii')
  put(entry.name, 0)
  put(octal(0o644, 8), 100)
  put(octal(0, 8), 108)
  put(octal(0, 8), 116)
  put(octal(entry.size, 12), 124)
  put(octal(Math.floor(entry.mtime.getTime() / 1000), 12), 136)
  // The checksum is summed with its own field as spaces.
  put('        ', 148)
  put('0', 156)
  put('ustar\0', 257)
  put('00', 263)
  let sum = 0
  for (const byte of header) sum += byte
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148)
  return header
}

/** The archive's bytes, chunk by chunk: each header, the file, padding to a block, then two empty blocks. */
export async function* tarChunks(entries: TarEntry[]): AsyncGenerator<Buffer> {
  for (const entry of entries) {
    const bytes = await entry.read()
    if (bytes.byteLength !== entry.size) throw new Error(`tar entry ${entry.name} is ${bytes.byteLength} bytes, not ${entry.size}`)
    yield tarHeader(entry)
    yield Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    const pad = (BLOCK - (entry.size % BLOCK)) % BLOCK
    if (pad > 0) yield Buffer.alloc(pad)
  }
  yield Buffer.alloc(BLOCK * 2)
}
