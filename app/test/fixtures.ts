import type { Wumpus } from '../../contract/wumpus'

/** A fake animation; ids are 24 hex characters like the real ones. */
export function makeWumpus(n: number, overrides: Partial<Wumpus> = {}): Wumpus {
  const id = n.toString(16).padStart(24, '0')
  return {
    _id: id,
    name: `Wumpus ${n}`,
    description: `Animation number ${n}`,
    gif: `/api/files/${'a'.repeat(20)}${id.slice(-4)}/wumpus-${n}.gif`,
    apng: `/api/files/${'b'.repeat(20)}${id.slice(-4)}/wumpus-${n}.png`,
    lottie: `/api/files/${'c'.repeat(20)}${id.slice(-4)}/wumpus-${n}.json`,
    u_email: `artist${n}@example.com`,
    u_name: `Artist ${n}`,
    tags: [],
    downloads: 0,
    // Higher numbers are newer, like the gallery's newest-first order.
    createdAt: new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString(),
    ...overrides,
  }
}

export function makeWumpuses(from: number, count: number): Wumpus[] {
  return Array.from({ length: count }, (_, i) => makeWumpus(from + i))
}
