/** "1 sticker", "12 stickers". */
export function stickerCount(count: number): string {
  return `${count} sticker${count === 1 ? '' : 's'}`
}
