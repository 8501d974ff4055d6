import { findEmoji } from '../../../contract/emoji'
import type { EmojiCount, TagCount } from '../../../contract/wumpus'
import type { CountOptions, Store } from '../store/port'

/**
 * What the gallery's filters offer: the tags and emoji in use, with how many animations carry each; those
 * of sensitive animations only `withSensitive` (as the lists: a signed-in person who turned them on).
 */
export interface GalleryService {
  /** The tags in use, most used first. */
  tags(options?: CountOptions): Promise<TagCount[]>
  /** The emoji in use, each with its name, most used first. */
  emoji(options?: CountOptions): Promise<EmojiCount[]>
}

export function createGalleryService(store: Store): GalleryService {
  return {
    tags: (options) => store.wumpuses.listTags(options),
    emoji: async (options) =>
      (await store.wumpuses.listEmoji(options)).map(({ char, count }) => ({ ...(findEmoji(char) ?? { char, name: '' }), count })),
  }
}
