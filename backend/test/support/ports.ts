import { connect, createServer } from 'node:net'

/** Whether something accepts connections on this loopback port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => (socket.destroy(), resolve(true)))
    socket.once('error', () => resolve(false))
  })
}

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

/**
 * The first of `count` consecutive free ports (e.g. the Auth emulator, its hub and its logging port).
 * Picked below Linux's ephemeral range (32768+), where outgoing connections would take ports at random.
 */
export async function freePortRun(count: number): Promise<number> {
  for (;;) {
    const first = 20_000 + Math.floor(Math.random() * 12_000)
    const free = await Promise.all(Array.from({ length: count }, (_, i) => canBind(first + i)))
    if (free.every(Boolean)) return first
  }
}
