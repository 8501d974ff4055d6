import { describe, expect, it } from 'vitest'
import { createRenderQueue, type RenderPriority } from './render-queue'

const entry = (key: string, priority: RenderPriority, account: string) => ({ key, priority, account, value: key })

function takeAll(queue: ReturnType<typeof createRenderQueue<string>>): string[] {
  const keys: string[] = []
  for (let next = queue.take(); next; next = queue.take()) keys.push(next.key)
  return keys
}

describe('render queue', () => {
  it('takes an admin’s publish first, then remixes, then remakes, whatever the order they came in', () => {
    const queue = createRenderQueue<string>(100)
    queue.add(entry('remake', 'remake', 'a'))
    for (let i = 0; i < 5; i++) queue.add(entry(`a${i}`, 'remix', 'a'))
    queue.add(entry('publish', 'publish', 'admin'))
    expect(takeAll(queue)).toEqual(['publish', 'a0', 'a1', 'a2', 'a3', 'a4', 'remake'])
  })

  it('lets accounts take turns within a priority: B’s one remix is not behind all of A’s', () => {
    const queue = createRenderQueue<string>(100)
    for (let i = 0; i < 5; i++) queue.add(entry(`a${i}`, 'remix', 'a'))
    queue.add(entry('b0', 'remix', 'b'))
    queue.add(entry('c0', 'remix', 'c'))
    queue.add(entry('b1', 'remix', 'b'))
    expect(queue.waiting('remix')).toBe(8)
    expect(takeAll(queue)).toEqual(['a0', 'b0', 'c0', 'a1', 'b1', 'a2', 'a3', 'a4'])
  })

  it('holds at most its size: the last low-priority entry makes room for a higher one, an equal one is turned away', () => {
    const queue = createRenderQueue<string>(3)
    expect(queue.add(entry('a0', 'remix', 'a'))).toBeUndefined()
    expect(queue.add(entry('a1', 'remix', 'a'))).toBeUndefined()
    expect(queue.add(entry('r0', 'remake', 'a'))).toBeUndefined()
    expect(queue.add(entry('a2', 'remix', 'a'))?.key).toBe('r0')
    expect(queue.add(entry('a3', 'remix', 'a'))?.key).toBe('a3')
    expect(queue.add(entry('p', 'publish', 'admin'))?.key).toBe('a2')
    expect(queue.size).toBe(3)
    expect(takeAll(queue)).toEqual(['p', 'a0', 'a1'])
  })

  it('asks once per key, raised to the higher priority when asked again', () => {
    const queue = createRenderQueue<string>(10)
    queue.add(entry('x', 'remake', 'a'))
    queue.add(entry('y', 'remix', 'a'))
    queue.add(entry('x', 'publish', 'admin'))
    expect(queue.size).toBe(2)
    expect(takeAll(queue)).toEqual(['x', 'y'])
  })
})
