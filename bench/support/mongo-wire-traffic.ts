/**
 * What a MongoDB client moves on the wire: a TCP relay in front of one MongoDB server (the in-process
 * stand-in or a real mongod) that counts the bytes each way and reads the server's replies (OP_MSG) for
 * the commands answered and the documents they carry (a cursor's batch; a `$facet` result holding a
 * `page` counts as its page's documents). The driver's monitoring (hello and its replies) is left out.
 * The client connects to the relay directly (directConnection), so a replica set member's own address
 * cannot take it past the relay. Plain `mongodb://` addresses only: TLS and compression would hide the
 * messages.
 */
import net from 'node:net'
import { deserialize, type Document } from 'bson'

export interface WireTraffic {
  /** Replies to commands (not counting the driver's monitoring). */
  commands: number
  /** Documents in the cursors answered (finds, aggregations, their getMores). */
  documents: number
  /** Bytes from the server to the client. */
  bytesIn: number
  /** Bytes from the client to the server. */
  bytesOut: number
}

export interface CountingRelay {
  /** The address to give the driver: the relay's, with the target's credentials and options. */
  uri: string
  /** The traffic since the last take (or the start), and starts counting again. */
  take(): Promise<WireTraffic>
  close(): Promise<void>
}

const OP_MSG = 2013
const OP_QUERY = 2004
const MONITORING = new Set(['hello', 'ismaster'])

const none = (): WireTraffic => ({ commands: 0, documents: 0, bytesIn: 0, bytesOut: 0 })

/** Starts a relay to the first host of `targetUri` (a `mongodb://` address). */
export async function startCountingRelay(targetUri: string): Promise<CountingRelay> {
  const target = /^mongodb:\/\/(?:([^@/]*)@)?([^/?,]+)[^/?]*(\/[^?]*)?(?:\?(.*))?$/.exec(targetUri)
  if (!target || /(^|&)(tls|ssl)=true/i.test(target[4] ?? ''))
    throw new Error(`Counting wire traffic needs a plain mongodb:// address (no TLS, no +srv): ${targetUri}`)
  const [, credentials, hostPort, dbPath, query] = target
  const [host, port] = hostPort!.startsWith('[')
    ? [hostPort!.slice(1, hostPort!.indexOf(']')), hostPort!.slice(hostPort!.indexOf(']') + 2)]
    : hostPort!.split(':')
  let traffic = none()

  const relay = net.createServer((client) => {
    const upstream = net.connect(Number(port || 27017), host)
    // Counted before the bytes are passed on ('data' listeners run in order), so an awaited reply is counted.
    client.on(
      'data',
      messages((message) => countRequest(message)),
    )
    upstream.on(
      'data',
      messages((message) => countReply(message)),
    )
    client.pipe(upstream).pipe(client)
    client.on('error', () => upstream.destroy())
    upstream.on('error', () => client.destroy())
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  const countRequest = (message: Buffer) => {
    if (MONITORING.has(commandName(message).toLowerCase())) return
    traffic.bytesOut += message.length
  }
  const countReply = (message: Buffer) => {
    const body = replyBody(message)
    // hello's reply (the monitoring, the handshake) carries the server's wire versions.
    if (!body || 'maxWireVersion' in body) return
    traffic.bytesIn += message.length
    traffic.commands++
    const cursor = body.cursor as { firstBatch?: Document[]; nextBatch?: Document[] } | undefined
    for (const doc of cursor?.firstBatch ?? cursor?.nextBatch ?? []) traffic.documents += Array.isArray(doc.page) ? doc.page.length : 1
  }
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve))
  const options = new URLSearchParams(query ?? '')
  // One address, the relay's: no replica set discovery past it.
  options.delete('replicaSet')
  options.set('directConnection', 'true')
  const relayPort = (relay.address() as net.AddressInfo).port
  return {
    uri: `mongodb://${credentials ? `${credentials}@` : ''}127.0.0.1:${relayPort}${dbPath ?? '/'}?${options}`,
    take: async () => {
      // Messages sent without a reply awaited (ending sessions, killing cursors) settle.
      await new Promise((resolve) => setTimeout(resolve, 20))
      const taken = traffic
      traffic = none()
      return taken
    },
    close: () => new Promise<void>((resolve) => relay.close(() => resolve())),
  }
}

/** Calls `each` with every whole wire message of a stream (each begins with its int32 length). */
function messages(each: (message: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0)
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
    while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
      const length = pending.readInt32LE(0)
      each(pending.subarray(0, length))
      pending = pending.subarray(length)
    }
  }
}

/** The first BSON document of an OP_MSG's kind 0 section (or of a legacy OP_QUERY), at its offset. */
function bodyOffset(message: Buffer): number | undefined {
  const opCode = message.readInt32LE(12)
  if (opCode === OP_MSG) {
    // Header (16), flagBits (4), then sections: kind 0 is one document, kind 1 a sized sequence.
    let at = 20
    while (at < message.length) {
      const kind = message[at]!
      if (kind === 0) return at + 1
      at += 1 + message.readInt32LE(at + 1)
    }
    return undefined
  }
  if (opCode === OP_QUERY) {
    // Header, flags, a C-string collection name, skip and return counts.
    const nameEnd = message.indexOf(0, 20)
    return nameEnd < 0 ? undefined : nameEnd + 9
  }
  return undefined
}

/** A request's command: its body's first field name. */
function commandName(message: Buffer): string {
  const at = bodyOffset(message)
  if (at === undefined) return ''
  const end = message.indexOf(0, at + 5)
  return end < 0 ? '' : message.toString('utf8', at + 5, end)
}

/** A reply's body (OP_MSG), or undefined for the legacy handshake reply (OP_REPLY). */
function replyBody(message: Buffer): Document | undefined {
  if (message.readInt32LE(12) !== OP_MSG) return undefined
  const at = bodyOffset(message)
  return at === undefined ? undefined : deserialize(message.subarray(at, at + message.readInt32LE(at)))
}
