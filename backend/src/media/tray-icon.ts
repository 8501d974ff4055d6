// WhatsApp's tray icon: the pack's cover as a 96x96 PNG of at most 50 KB, from a still (or the first
// frame of an animated WebP), fitted inside the square on a transparent background.
import sharp from 'sharp'
import { WHATSAPP_TRAY_MAX_BYTES, WHATSAPP_TRAY_SIZE } from '../../../contract/limits'

export async function trayIcon(image: Uint8Array): Promise<Uint8Array> {
  const resized = () =>
    sharp(image, { animated: false }).resize(WHATSAPP_TRAY_SIZE, WHATSAPP_TRAY_SIZE, {
      fit: 'contain',
      background: { r: 0, g: 0, b: 0, alpha: 0 },
    })
  let png = await resized().png({ compressionLevel: 9 }).toBuffer()
  // A full-colour 96x96 RGBA PNG is at most ~37 KB, so this is only a guard; a palette always fits.
  if (png.length > WHATSAPP_TRAY_MAX_BYTES) png = await resized().png({ palette: true, compressionLevel: 9 }).toBuffer()
  return new Uint8Array(png.buffer, png.byteOffset, png.length)
}
