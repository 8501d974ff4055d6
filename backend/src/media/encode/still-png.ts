import sharp from 'sharp'

/** The first frame of a picture (WebP, GIF, PNG/APNG) as a plain PNG: for link previews and copying to the clipboard. */
export async function stillPng(bytes: Uint8Array): Promise<Uint8Array> {
  const png = await sharp(bytes, { pages: 1 }).png().toBuffer()
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength)
}
