// The images a chat app shows for a whole pack, made from the pack's cover (a still, or the first frame of an
// animated WebP), fitted inside the box on a transparent background: WhatsApp's tray icon (96x96, at most
// 50 KB), LINE's main image (240x240) and chat tab image (96x74).
import sharp from 'sharp'
import {
  LINE_MAIN_SIZE,
  LINE_TAB_SIZE,
  PACK_IMAGE_MAX_BYTES,
  WHATSAPP_TRAY_MAX_BYTES,
  WHATSAPP_TRAY_SIZE,
} from '../../../../contract/limits'

async function coverImage(image: Uint8Array, width: number, height: number, maxBytes: number): Promise<Uint8Array> {
  const resized = () =>
    sharp(image, { animated: false }).resize(width, height, {
      fit: 'contain',
      background: { r: 0, g: 0, b: 0, alpha: 0 },
    })
  let png = await resized().png({ compressionLevel: 9 }).toBuffer()
  // A full-colour RGBA PNG this small is far under the limits, so this is only a guard; a palette always fits.
  if (png.length > maxBytes) png = await resized().png({ palette: true, compressionLevel: 9 }).toBuffer()
  return new Uint8Array(png.buffer, png.byteOffset, png.length)
}

export function trayIcon(image: Uint8Array): Promise<Uint8Array> {
  return coverImage(image, WHATSAPP_TRAY_SIZE, WHATSAPP_TRAY_SIZE, WHATSAPP_TRAY_MAX_BYTES)
}

/** LINE's main image and chat tab image of a sticker set. */
export async function lineSetImages(image: Uint8Array): Promise<{ main: Uint8Array; tab: Uint8Array }> {
  return {
    main: await coverImage(image, LINE_MAIN_SIZE.width, LINE_MAIN_SIZE.height, PACK_IMAGE_MAX_BYTES),
    tab: await coverImage(image, LINE_TAB_SIZE.width, LINE_TAB_SIZE.height, PACK_IMAGE_MAX_BYTES),
  }
}
