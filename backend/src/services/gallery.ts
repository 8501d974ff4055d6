import { findEmoji } from '../../../contract/emoji'
import type { EmojiCount, TagCount } from '../../../contract/wumpus'
import type { Store } from '../store/port'

/** What the gallery's filters offer: the tags and emoji in use, with how many animations carry each. */
export interface GalleryService {
  /** The tags in use, most used first. */
  tags(): Promise<TagCount[]>
  /** The emoji in use, each with its name, most used first. */
  emoji(): Promise<EmojiCount[]>
}

export function createGalleryService(store: Store): GalleryService {
  return {
    tags: () => store.wumpuses.listTags(),
    emoji: async () => (await store.wumpuses.listEmoji()).map(({ char, count }) => ({ ...(findEmoji(char) ?? { char, name: '' }), count })),
  }
}
