import { connect, createServer } from 'node:net'

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/** Whether something accepts connections on this loopback port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => (socket.destroy(), resolve(true)))
    socket.once('error', () => resolve(false))
  })
}

/** The first of `count` consecutive free ports (e.g. the Auth emulator, its hub and its logging port). */
export async function freePortRun(count: number): Promise<number> {
  for (;;) {
    const first = await freePort()
    if (first + count > 65535) continue
    const busy = await Promise.all(Array.from({ length: count - 1 }, (_, i) => listening(first + 1 + i)))
    if (!busy.some(Boolean)) return first
  }
}
