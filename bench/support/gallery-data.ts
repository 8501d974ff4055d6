// A large made-up gallery for the benchmarks: names, descriptions and tags drawn from a vocabulary with
// a skew (some words are much more common, as in real text), a few accented words, and download counts
// where few animations get most downloads. Deterministic, so runs compare.
import type { StickerEmoji } from '../../contract/wumpus'

const COLORS = [
  'red',
  'orange',
  'yellow',
  'green',
  'teal',
  'blue',
  'purple',
  'pink',
  'lavender',
  'mint',
  'peach',
  'coral',
  'golden',
  'silver',
  'icy',
  'sunny',
  'violet',
  'lime',
  'amber',
  'crimson',
]
const MOODS = [
  'happy',
  'sleepy',
  'grumpy',
  'excited',
  'curious',
  'shy',
  'proud',
  'silly',
  'calm',
  'angry',
  'dizzy',
  'brave',
  'bored',
  'cheerful',
  'cozy',
  'nervous',
  'lovestruck',
  'sad',
  'surprised',
  'confused',
  'playful',
  'lazy',
  'hungry',
  'tired',
  'jolly',
  'gentle',
  'fierce',
  'dreamy',
  'naïve',
  'zen',
]
const ACTIONS = [
  'waving',
  'dancing',
  'jumping',
  'spinning',
  'bouncing',
  'sleeping',
  'yawning',
  'shivering',
  'cheering',
  'blinking',
  'clapping',
  'laughing',
  'crying',
  'singing',
  'running',
  'floating',
  'wiggling',
  'hopping',
  'stretching',
  'nodding',
  'winking',
  'sneezing',
  'giggling',
  'twirling',
  'skating',
  'surfing',
  'juggling',
  'reading',
  'cooking',
  'painting',
  'typing',
  'gaming',
  'swimming',
  'flying',
  'hugging',
  'thinking',
  'eating',
  'drinking',
  'sipping',
  'celebrating',
]
const THINGS = [
  'hearts',
  'stars',
  'sparkles',
  'snowflakes',
  'balloons',
  'confetti',
  'cake',
  'coffee',
  'tea',
  'pizza',
  'cookie',
  'rainbow',
  'moon',
  'sun',
  'cloud',
  'umbrella',
  'guitar',
  'drum',
  'book',
  'camera',
  'rocket',
  'crown',
  'flower',
  'leaf',
  'pumpkin',
  'present',
  'trophy',
  'headphones',
  'scarf',
  'hat',
  'café',
  'crème',
  'piñata',
  'jalapeño',
  'smoothie',
  'noodles',
  'donut',
  'popcorn',
  'kite',
  'lantern',
]
const PLACES = [
  'morning',
  'night',
  'weekend',
  'monday',
  'party',
  'office',
  'beach',
  'forest',
  'kitchen',
  'garden',
  'winter',
  'summer',
  'spring',
  'autumn',
  'birthday',
  'holiday',
  'space',
  'ocean',
  'city',
  'mountain',
]
const FILLERS = ['a', 'the', 'with', 'and', 'in', 'on', 'while', 'its', 'little', 'big', 'round', 'wumpus']

export const VOCABULARY = [...MOODS, ...ACTIONS, ...THINGS, ...PLACES, ...COLORS]
export const TAGS = [...MOODS.slice(0, 20), ...ACTIONS.slice(0, 20), ...PLACES.slice(0, 20)].map((word) =>
  word.normalize('NFD').replace(/\p{M}+/gu, ''),
)

export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

/** Skewed towards the start of the list: the first words are several times more common than the last. */
function skewed<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() ** 1.3 * items.length)]!
}

const title = (word: string) => word[0]!.toUpperCase() + word.slice(1)

/** Emoji as the admin picker gives them, with their names (the common ones of stickers). */
const EMOJI: StickerEmoji[] = [
  { char: '😀', name: 'grinning face', shortcode: 'grinning' },
  { char: '😂', name: 'face with tears of joy', shortcode: 'joy' },
  { char: '❤️', name: 'red heart', shortcode: 'heart' },
  { char: '👋', name: 'waving hand', shortcode: 'wave' },
  { char: '🎉', name: 'party popper', shortcode: 'tada' },
  { char: '😴', name: 'sleeping face', shortcode: 'sleeping' },
  { char: '🔥', name: 'fire', shortcode: 'fire' },
  { char: '👍', name: 'thumbs up', shortcode: '+1' },
]

export interface GalleryItem {
  name: string
  description: string
  tags: string[]
  emoji: StickerEmoji[]
  keywords: string[]
  downloads: number
  licence: 'gallery-only'
  credit: string
  sensitive: boolean
}

export function galleryItem(random: () => number, index: number): GalleryItem {
  const name = `${title(skewed(random, [...MOODS, ...COLORS]))} ${title(skewed(random, ACTIONS))} Wumpus ${index}`
  const words = Array.from({ length: 8 + Math.floor(random() * 7) }, () =>
    random() < 0.3 ? skewed(random, FILLERS) : skewed(random, VOCABULARY),
  )
  const tags = [...new Set(Array.from({ length: 1 + Math.floor(random() * 4) }, () => skewed(random, TAGS)))]
  const downloads = Math.floor(1000 * random() ** 8)
  const emoji = [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => skewed(random, EMOJI)))]
  return {
    name,
    description: `${title(words.join(' '))}.`,
    tags,
    emoji,
    keywords: [],
    downloads,
    licence: 'gallery-only',
    credit: '',
    sensitive: false,
  }
}

/**
 * Search queries as people type them: whole words, prefixes of 2-5 letters, two words, accented or
 * capitalized words, and the odd single letter.
 */
export function searchQueries(random: () => number, count: number): string[] {
  const queries: string[] = []
  while (queries.length < count) {
    const word = skewed(random, VOCABULARY)
    const kind = random()
    if (kind < 0.35) queries.push(word)
    else if (kind < 0.7) queries.push(word.slice(0, 2 + Math.floor(random() * 4)))
    else if (kind < 0.85) queries.push(`${word} ${skewed(random, VOCABULARY).slice(0, 3)}`)
    else if (kind < 0.95) queries.push(random() < 0.5 ? title(word) : word.toUpperCase())
    else queries.push(word.slice(0, 1))
  }
  return queries
}
