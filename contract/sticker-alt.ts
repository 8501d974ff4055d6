/** The text alternative of a sticker image: its name and what it shows. */
export function stickerAlt({ name, description }: { name: string; description: string }): string {
  const shows = description.trim()
  return shows ? `${name}: ${shows}` : name
}
