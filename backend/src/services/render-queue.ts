// The order the render worker takes derived media work in: by priority first (an admin's publish or
// edit, then people's own remixes, then remakes), and within a priority round-robin between accounts,
// so that one account's many remixes do not wait in front of another's one. At most `max` entries are
// held; what does not fit stays a render job in the store (every animation without its derived media
// is one) and is taken by a sweep once room frees.

/** Highest first. */
export const RENDER_PRIORITIES = ['publish', 'remix', 'remake'] as const
export type RenderPriority = (typeof RENDER_PRIORITIES)[number]

export interface QueuedRender<T> {
  key: string
  priority: RenderPriority
  account: string
  value: T
}

export interface RenderQueue<T> {
  /**
   * Queues (or, when queued already, raises to `priority` and keeps its place among its account's) an
   * entry. When full, the entry of the lowest priority that was queued last is pushed out to make room
   * for a higher one and answered; answers the new entry itself when it does not fit.
   */
  add(entry: QueuedRender<T>): QueuedRender<T> | undefined
  /** The next entry to work, taken out of the queue. */
  take(): QueuedRender<T> | undefined
  get(key: string): QueuedRender<T> | undefined
  /** How many entries wait at this priority. */
  waiting(priority: RenderPriority): number
  readonly size: number
  /** Every entry, taken out (at close). */
  drain(): Array<QueuedRender<T>>
}

export function createRenderQueue<T>(max: number): RenderQueue<T> {
  const byKey = new Map<string, QueuedRender<T>>()
  /** Per priority: each account's keys in arrival order; the Map's order is the accounts' turn. */
  const lanes = new Map<RenderPriority, Map<string, string[]>>(RENDER_PRIORITIES.map((p) => [p, new Map()]))

  const rank = (priority: RenderPriority) => RENDER_PRIORITIES.indexOf(priority)

  function insert(entry: QueuedRender<T>): void {
    byKey.set(entry.key, entry)
    const lane = lanes.get(entry.priority)!
    const keys = lane.get(entry.account)
    if (keys) keys.push(entry.key)
    else lane.set(entry.account, [entry.key])
  }

  function remove(entry: QueuedRender<T>): void {
    byKey.delete(entry.key)
    const lane = lanes.get(entry.priority)!
    const keys = lane.get(entry.account)!
    keys.splice(keys.indexOf(entry.key), 1)
    if (keys.length === 0) lane.delete(entry.account)
  }

  /** The entry queued last at the lowest priority that has any. */
  function lowest(): QueuedRender<T> | undefined {
    for (const priority of [...RENDER_PRIORITIES].reverse()) {
      const accounts = [...lanes.get(priority)!.values()]
      const last = accounts.at(-1)?.at(-1)
      if (last !== undefined) return byKey.get(last)
    }
    return undefined
  }

  return {
    add(entry) {
      const known = byKey.get(entry.key)
      if (known) {
        if (rank(entry.priority) < rank(known.priority)) {
          remove(known)
          insert({ ...known, priority: entry.priority, account: entry.account })
        }
        return undefined
      }
      if (byKey.size < max) {
        insert(entry)
        return undefined
      }
      const out = lowest()
      if (!out || rank(out.priority) <= rank(entry.priority)) return entry
      remove(out)
      insert(entry)
      return out
    },

    take() {
      for (const priority of RENDER_PRIORITIES) {
        const lane = lanes.get(priority)!
        const next = lane.entries().next().value
        if (!next) continue
        const [account, keys] = next
        const key = keys.shift()!
        // The account's turn ends: it goes to the back of its priority's line.
        lane.delete(account)
        if (keys.length > 0) lane.set(account, keys)
        const entry = byKey.get(key)!
        byKey.delete(key)
        return entry
      }
      return undefined
    },

    get: (key) => byKey.get(key),

    waiting: (priority) => [...lanes.get(priority)!.values()].reduce((sum, keys) => sum + keys.length, 0),

    get size() {
      return byKey.size
    },

    drain() {
      const all = [...byKey.values()]
      byKey.clear()
      for (const lane of lanes.values()) lane.clear()
      return all
    },
  }
}
