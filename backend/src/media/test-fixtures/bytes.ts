/** Small byte-writing helpers for building media fixtures in tests. */
import { concatBytes } from '../encode/concat-bytes'
import { MediaError } from '../inspect/media-error'

export type ByteSource = Uint8Array | readonly number[] | string

/** Concatenates byte sources; strings are written as latin1 (one byte per char). */
export function bytes(...parts: ByteSource[]): Uint8Array {
  const arrays = parts.map((part) =>
    typeof part === 'string' ? Uint8Array.from(part, (char) => char.charCodeAt(0)) : Uint8Array.from(part),
  )
  return concatBytes(arrays)
}

export const u16le = (value: number) => [value & 0xff, (value >>> 8) & 0xff]
export const u16be = (value: number) => [(value >>> 8) & 0xff, value & 0xff]
export const u24le = (value: number) => [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff]
export const u32le = (value: number) => [...u16le(value & 0xffff), ...u16le(value >>> 16)]
export const u32be = (value: number) => [...u16be(value >>> 16), ...u16be(value & 0xffff)]

/** The MediaError `run` throws; fails the test if it throws nothing or something else. */
export function mediaErrorOf(run: () => unknown): MediaError {
  try {
    run()
  } catch (error) {
    if (error instanceof MediaError) return error
    throw error
  }
  throw new Error('expected a MediaError, but nothing was thrown')
}

/** A copy of `source` with `change` applied. */
export function patched(source: Uint8Array, change: (copy: Uint8Array) => void): Uint8Array {
  const copy = source.slice()
  change(copy)
  return copy
}

/** A copy of `source` with the bits of `mask` flipped in the byte at `at`. */
export const flipped = (source: Uint8Array, at: number, mask = 1) => patched(source, (copy) => (copy[at] = copy[at]! ^ mask))
