/**
 * What every list of media files tells of one: its type, size in bytes, dimensions, frames and one play's
 * duration. The server's inspections (MediaInfo), derived files, platform checks and the stickers list all
 * speak it. (No imports: the home page's code takes it in with the stickers list.)
 */
export interface MediaFacts {
  contentType: string
  bytes: number
  width: number
  height: number
  frames: number
  /** One play, in milliseconds (0 for stills). */
  durationMs: number
}

/** Only the facts, of something that holds more (a stored document, an inspection, a platform check). */
export function pickMediaFacts({ contentType, bytes, width, height, frames, durationMs }: MediaFacts): MediaFacts {
  return { contentType, bytes, width, height, frames, durationMs }
}
