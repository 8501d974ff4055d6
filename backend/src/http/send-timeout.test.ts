import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { addPackWithSignalFile, startTestServer, type TestServer } from '../../test/support/test-server'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer({ SEND_TIMEOUT_SECONDS: '1' })
})
afterAll(() => server.close())

/** A pack of one animation whose Signal file is far larger than what the sockets' buffers hold. */
const packWithBigSticker = () => addPackWithSignalFile(server.store, 'Big', new Uint8Array(48 * 1024 * 1024))

describe('answers to clients that stop reading', () => {
  it('cuts off a pack ZIP whose client takes nothing more, freeing its connection', async () => {
    const id = await packWithBigSticker()
    const socket = net.connect(Number(new URL(server.url).port), '127.0.0.1')
    socket.on('error', () => {})
    let received = 0
    // The client reads the start of the answer, then nothing more.
    socket.once('data', (chunk: Buffer) => {
      received += chunk.length
      socket.pause()
    })
    socket.write(`GET /api/packs/${id}/download/signal HTTP/1.1\r\nHost: localhost\r\n\r\n`)
    await vi.waitFor(() => expect(received).toBeGreaterThan(0))
    expect(await server.connections()).toBe(1)
    await vi.waitFor(async () => expect(await server.connections()).toBe(0), { timeout: 15_000, interval: 100 })
    socket.destroy()
  })

  it('cuts off every file download whose client takes nothing more, each holding a stream rather than the file', async () => {
    const big = await server.store.files.put({ bytes: new Uint8Array(8 * 1024 * 1024), contentType: 'image/gif', filename: 'big.gif' })
    const read = vi.spyOn(server.store.files, 'read')
    const sockets = Array.from({ length: 20 }, () => net.connect(Number(new URL(server.url).port), '127.0.0.1'))
    let answered = 0
    for (const socket of sockets) {
      socket.on('error', () => {})
      // Each client reads the start of the answer, then nothing more.
      socket.once('data', () => {
        answered++
        socket.pause()
      })
      socket.write(`GET /api/files/${big.id}/big.gif HTTP/1.1\r\nHost: localhost\r\n\r\n`)
    }
    await vi.waitFor(() => expect(answered).toBe(sockets.length), { timeout: 15_000 })
    expect(await server.connections()).toBe(sockets.length)
    await vi.waitFor(async () => expect(await server.connections()).toBe(0), { timeout: 15_000, interval: 100 })
    expect(read).not.toHaveBeenCalled()
    read.mockRestore()
    for (const socket of sockets) socket.destroy()
  })
})
