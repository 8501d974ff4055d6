import net from 'node:net'
import { BSON, Binary, Long, type Document } from 'bson'
import { MongoClient, MongoServerError } from 'mongodb'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { crc32c, startMongoWireServer, type MongoWireServer } from './mongo-wire-server'

const OP_REPLY = 1
const OP_QUERY = 2004
const OP_MSG = 2013

/** A bare TCP client that speaks wire messages, for what the driver never sends. */
class RawClient {
  private readonly socket: net.Socket
  private buffered = Buffer.alloc(0)
  private readonly waiters: Array<(message: Buffer) => void> = []
  readonly closed: Promise<void>
  private nextRequestId = 1

  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1')
    this.socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk])
      while (this.buffered.length >= 4 && this.buffered.length >= this.buffered.readInt32LE(0)) {
        const length = this.buffered.readInt32LE(0)
        const message = this.buffered.subarray(0, length)
        this.buffered = this.buffered.subarray(length)
        this.waiters.shift()?.(message)
      }
    })
    this.closed = new Promise((resolve) => this.socket.on('close', () => resolve()))
  }

  send(message: Buffer): void {
    this.socket.write(message)
  }

  nextReply(): Promise<Buffer> {
    return new Promise((resolve) => this.waiters.push(resolve))
  }

  requestId(): number {
    return this.nextRequestId++
  }

  close(): void {
    this.socket.destroy()
  }
}

function header(length: number, requestId: number, opCode: number): Buffer {
  const bytes = Buffer.alloc(16)
  bytes.writeInt32LE(length, 0)
  bytes.writeInt32LE(requestId, 4)
  bytes.writeInt32LE(0, 8)
  bytes.writeInt32LE(opCode, 12)
  return bytes
}

function opMsg(
  requestId: number,
  body: Document,
  options: { flags?: number; sequences?: Record<string, Document[]>; checksum?: 'valid' | 'wrong' } = {},
): Buffer {
  const sections: Buffer[] = [Buffer.from([0]), Buffer.from(BSON.serialize(body))]
  for (const [identifier, docs] of Object.entries(options.sequences ?? {})) {
    const payload = Buffer.concat([Buffer.from(`${identifier}\0`), ...docs.map((doc) => Buffer.from(BSON.serialize(doc)))])
    const size = Buffer.alloc(4)
    size.writeInt32LE(4 + payload.length)
    sections.push(Buffer.from([1]), size, payload)
  }
  let flags = options.flags ?? 0
  if (options.checksum) flags |= 1
  const flagBytes = Buffer.alloc(4)
  flagBytes.writeUInt32LE(flags)
  const rest = Buffer.concat([flagBytes, ...sections])
  const length = 16 + rest.length + (options.checksum ? 4 : 0)
  const message = Buffer.concat([header(length, requestId, OP_MSG), rest])
  if (!options.checksum) return message
  const crc = Buffer.alloc(4)
  crc.writeUInt32LE(options.checksum === 'valid' ? crc32c(message) : (crc32c(message) ^ 1) >>> 0)
  return Buffer.concat([message, crc])
}

function readOpMsg(message: Buffer): { responseTo: number; body: Document } {
  expect(message.readInt32LE(12)).toBe(OP_MSG)
  expect(message[20]).toBe(0)
  // useBigInt64 shows which numbers travel as int64 (cursor ids must).
  return { responseTo: message.readInt32LE(8), body: BSON.deserialize(message.subarray(21), { useBigInt64: true }) }
}

describe('mongo wire server', () => {
  let server: MongoWireServer
  let client: MongoClient
  const raws: RawClient[] = []

  function raw(): RawClient {
    const rawClient = new RawClient(server.port)
    raws.push(rawClient)
    return rawClient
  }

  beforeAll(async () => {
    server = await startMongoWireServer()
    client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 2000 })
    await client.connect()
  })

  afterEach(() => {
    for (const rawClient of raws.splice(0)) rawClient.close()
  })

  afterAll(async () => {
    await client.close()
    await server.close()
  })

  it('computes CRC-32C like the reference check value', () => {
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283)
  })

  it('answers the legacy OP_QUERY isMaster handshake with OP_REPLY as the primary of a one-member replica set', async () => {
    const rawClient = raw()
    const query = Buffer.from(BSON.serialize({ ismaster: 1, helloOk: true }))
    const body = Buffer.concat([Buffer.alloc(4), Buffer.from('admin.$cmd\0'), Buffer.alloc(4), Buffer.from([255, 255, 255, 255]), query])
    const requestId = rawClient.requestId()
    rawClient.send(Buffer.concat([header(16 + body.length, requestId, OP_QUERY), body]))
    const reply = await rawClient.nextReply()
    expect(reply.readInt32LE(12)).toBe(OP_REPLY)
    expect(reply.readInt32LE(8)).toBe(requestId)
    expect(reply.readInt32LE(32)).toBe(1) // numberReturned
    const hello = BSON.deserialize(reply.subarray(36))
    expect(hello).toMatchObject({ ok: 1, ismaster: true, isWritablePrimary: true, helloOk: true, minWireVersion: 0 })
    expect(hello.maxWireVersion).toBeGreaterThanOrEqual(9)
    expect(hello.maxWireVersion).toBeLessThanOrEqual(29)
    expect(hello).toMatchObject({ setName: 'rs0', hosts: [`127.0.0.1:${server.port}`], me: `127.0.0.1:${server.port}` })
    expect(hello.localTime).toBeInstanceOf(Date)
    for (const key of ['maxBsonObjectSize', 'maxMessageSizeBytes', 'maxWriteBatchSize', 'logicalSessionTimeoutMinutes', 'connectionId']) {
      expect(typeof hello[key]).toBe('number')
    }
  })

  it('sends no reply for moreToCome but still applies the write', async () => {
    const rawClient = raw()
    rawClient.send(opMsg(rawClient.requestId(), { insert: 'quiet', documents: [{ _id: 1, v: 'a' }], $db: 'wire' }, { flags: 2 }))
    const findId = rawClient.requestId()
    rawClient.send(opMsg(findId, { find: 'quiet', filter: {}, $db: 'wire' }))
    const reply = readOpMsg(await rawClient.nextReply())
    // The first reply on the socket answers the find: the insert got none.
    expect(reply.responseTo).toBe(findId)
    expect(reply.body.cursor.firstBatch).toEqual([{ _id: 1, v: 'a' }])
  })

  it('reads kind 1 document sequences', async () => {
    const rawClient = raw()
    const requestId = rawClient.requestId()
    rawClient.send(
      opMsg(requestId, { insert: 'sequenced', $db: 'wire' }, { sequences: { documents: [{ _id: 1 }, { _id: 2 }, { _id: 3 }] } }),
    )
    const reply = readOpMsg(await rawClient.nextReply())
    expect(reply.responseTo).toBe(requestId)
    expect(reply.body).toEqual({ n: 3, ok: 1 })
    expect(await client.db('wire').collection('sequenced').countDocuments()).toBe(3)
  })

  it('accepts a correct checksum and drops the connection on a wrong one', async () => {
    const good = raw()
    good.send(opMsg(good.requestId(), { ping: 1, $db: 'admin' }, { checksum: 'valid' }))
    expect(readOpMsg(await good.nextReply()).body).toEqual({ ok: 1 })
    const bad = raw()
    bad.send(opMsg(bad.requestId(), { ping: 1, $db: 'admin' }, { checksum: 'wrong' }))
    await bad.closed
  })

  it('drops a connection that sends a malformed message and keeps serving others', async () => {
    const rawClient = raw()
    const garbage = Buffer.concat([Buffer.alloc(4), Buffer.from('admin.$cmd\0'), Buffer.alloc(8), Buffer.from([50, 0, 0, 0, 1])])
    rawClient.send(Buffer.concat([header(16 + garbage.length, rawClient.requestId(), OP_QUERY), garbage]))
    await rawClient.closed
    await expect(client.db('admin').command({ ping: 1 })).resolves.toEqual({ ok: 1 })
  })

  it('answers unknown commands with CommandNotFound', async () => {
    const rawClient = raw()
    rawClient.send(opMsg(rawClient.requestId(), { frobnicate: 1, $db: 'admin' }))
    expect(readOpMsg(await rawClient.nextReply()).body).toMatchObject({ ok: 0, code: 59, codeName: 'CommandNotFound' })
    await expect(client.db('admin').command({ frobnicate: 1 })).rejects.toMatchObject({ code: 59 })
  })

  it('answers listIndexes on a missing collection with NamespaceNotFound (26)', async () => {
    const error = await client
      .db('wire')
      .collection('missing')
      .listIndexes()
      .toArray()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MongoServerError)
    expect(error).toMatchObject({ code: 26, codeName: 'NamespaceNotFound' })
  })

  it('reports duplicate keys on a unique index as writeErrors 11000 with ok 1', async () => {
    const people = client.db('wire').collection('people')
    await people.createIndex({ email: 1 }, { unique: true })
    await people.insertOne({ email: 'a@example.com' })
    await expect(people.insertOne({ email: 'a@example.com' })).rejects.toMatchObject({ code: 11000 })
    await people.insertOne({ email: 'b@example.com' })
    await expect(people.updateOne({ email: 'b@example.com' }, { $set: { email: 'a@example.com' } })).rejects.toMatchObject({
      code: 11000,
    })

    const rawClient = raw()
    rawClient.send(opMsg(rawClient.requestId(), { insert: 'people', documents: [{ email: 'a@example.com' }], $db: 'wire' }))
    const { body } = readOpMsg(await rawClient.nextReply())
    expect(body.ok).toBe(1)
    expect(body.n).toBe(0)
    expect(body.writeErrors).toHaveLength(1)
    expect(body.writeErrors[0]).toMatchObject({ index: 0, code: 11000 })
    expect(body.writeErrors[0].errmsg).toMatch(/^E11000 duplicate key/)
    // A unique index cannot be built over existing duplicates.
    const twins = client.db('wire').collection('twins')
    await twins.insertMany([{ k: 1 }, { k: 1 }])
    await expect(twins.createIndex({ k: 1 }, { unique: true })).rejects.toMatchObject({ code: 11000 })
  })

  it('pages large results with getMore and kills cursors', async () => {
    const many = client.db('wire').collection('many')
    await many.insertMany(Array.from({ length: 250 }, (_, i) => ({ i })))
    const all = await many.find({}, { batchSize: 40 }).sort({ i: -1 }).toArray()
    expect(all.map((doc) => doc.i)).toEqual(Array.from({ length: 250 }, (_, i) => 249 - i))
    const limited = await many
      .find({ i: { $gte: 100 } })
      .sort({ i: 1 })
      .skip(5)
      .limit(3)
      .project({ _id: 0 })
      .toArray()
    expect(limited).toEqual([{ i: 105 }, { i: 106 }, { i: 107 }])

    const rawClient = raw()
    rawClient.send(opMsg(rawClient.requestId(), { find: 'many', filter: {}, batchSize: 10, $db: 'wire' }))
    const first = readOpMsg(await rawClient.nextReply()).body
    expect(first.cursor.firstBatch).toHaveLength(10)
    const id = first.cursor.id as bigint
    expect(typeof id).toBe('bigint')
    expect(id).not.toBe(0n)
    rawClient.send(opMsg(rawClient.requestId(), { killCursors: 'many', cursors: [Long.fromBigInt(id)], $db: 'wire' }))
    expect(readOpMsg(await rawClient.nextReply()).body.cursorsKilled).toHaveLength(1)
    rawClient.send(opMsg(rawClient.requestId(), { getMore: Long.fromBigInt(id), collection: 'many', $db: 'wire' }))
    expect(readOpMsg(await rawClient.nextReply()).body).toMatchObject({ ok: 0, code: 43 })
  })

  it('applies updates, upserts, findAndModify, deletes, counts, distinct and aggregation', async () => {
    const things = client.db('wire').collection<{ _id: string; n?: number; tag?: string; made?: boolean }>('things')
    await things.insertMany([
      { _id: 'a', n: 1, tag: 'x' },
      { _id: 'b', n: 2, tag: 'y' },
      { _id: 'c', n: 3, tag: 'x' },
    ])
    expect((await things.updateMany({ tag: 'x' }, { $inc: { n: 10 } })).modifiedCount).toBe(2)
    expect((await things.updateOne({ _id: 'b' }, { $set: { n: 2 } })).modifiedCount).toBe(0)
    const upsert = await things.updateOne({ _id: 'd' }, { $set: { n: 4 }, $setOnInsert: { made: true } }, { upsert: true })
    expect(upsert.upsertedId).toBe('d')
    expect(await things.findOne({ _id: 'd' })).toEqual({ _id: 'd', n: 4, made: true })
    await things.updateOne({ _id: 'd' }, { $set: { n: 5 }, $setOnInsert: { made: false } }, { upsert: true })
    expect(await things.findOne({ _id: 'd' })).toEqual({ _id: 'd', n: 5, made: true })
    expect(await things.findOneAndUpdate({ _id: 'a' }, { $unset: { tag: '' } }, { returnDocument: 'after' })).toEqual({ _id: 'a', n: 11 })
    expect(await things.findOneAndUpdate({ _id: 'b' }, { $set: { n: 20 } })).toEqual({ _id: 'b', n: 2, tag: 'y' })
    expect(await things.findOneAndDelete({ tag: 'x' })).toEqual({ _id: 'c', n: 13, tag: 'x' })
    await expect(things.updateOne({ _id: 'a' }, { $set: { _id: 'z' } })).rejects.toMatchObject({ code: 66 })
    expect(await things.countDocuments({ n: { $gte: 5 } })).toBe(3)
    expect(await things.estimatedDocumentCount()).toBe(3)
    expect((await things.distinct('n')).sort()).toEqual([11, 20, 5])
    const grouped = await things.aggregate([{ $match: {} }, { $group: { _id: null, total: { $sum: '$n' } } }]).toArray()
    expect(grouped).toEqual([{ _id: null, total: 36 }])
    expect(await things.aggregate([{ $sort: { n: -1 } }, { $limit: 2 }, { $count: 'c' }]).toArray()).toEqual([{ c: 2 }])
    expect((await things.deleteOne({})).deletedCount).toBe(1)
    expect((await things.deleteMany({})).deletedCount).toBe(2)
  })

  it('round-trips binary data byte for byte and lists and drops collections', async () => {
    const db = client.db('wire_binary')
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i))
    await db.collection('blobs').insertOne({ _id: 'b' as never, data: new Binary(bytes) })
    const doc = await db.collection('blobs').findOne({ _id: 'b' as never })
    expect(Buffer.from((doc?.data as Binary).buffer).equals(bytes)).toBe(true)
    expect((await db.listCollections().toArray()).map((c) => c.name)).toEqual(['blobs'])
    expect(await db.collection('blobs').drop()).toBe(true)
    expect(await db.listCollections().toArray()).toEqual([])
    await db.collection('blobs').insertOne({ x: 1 })
    await db.dropDatabase()
    expect(await db.collection('blobs').countDocuments()).toBe(0)
  })

  it('tells onCommand of every command with its reply', async () => {
    const seen: Array<{ command: Document; reply: Document }> = []
    const other = await startMongoWireServer({ onCommand: (command, reply) => seen.push({ command, reply }) })
    const otherClient = new MongoClient(other.uri, { serverSelectionTimeoutMS: 2000 })
    try {
      await otherClient.connect()
      const things = otherClient.db('wire_hook').collection('things')
      await things.insertMany([{ n: 1 }, { n: 2 }])
      expect(await things.find({ n: { $gt: 1 } }).toArray()).toHaveLength(1)
      const finds = seen.filter(({ command }) => command.find === 'things')
      expect(finds).toHaveLength(1)
      expect(finds[0]!.command.filter).toEqual({ n: { $gt: 1 } })
      expect((finds[0]!.reply.cursor as Document).firstBatch).toHaveLength(1)
      expect(seen.find(({ command }) => command.insert === 'things')?.reply).toMatchObject({ n: 2, ok: 1 })
    } finally {
      await otherClient.close()
      await other.close()
    }
  })

  it('refuses a duplicate key on a unique index after updates and deletes changed what holds it', async () => {
    const things = client.db('wire_unique').collection('things')
    await things.createIndex({ code: 1 }, { unique: true })
    await things.insertMany([
      { _id: 'a' as never, code: 1 },
      { _id: 'b' as never, code: 2 },
    ])
    await expect(things.insertOne({ code: 2 })).rejects.toMatchObject({ code: 11000 })
    await things.updateOne({ _id: 'b' as never }, { $set: { code: 3 } })
    await things.insertOne({ _id: 'c' as never, code: 2 })
    await expect(things.updateOne({ _id: 'c' as never }, { $set: { code: 3 } })).rejects.toMatchObject({ code: 11000 })
    await things.deleteOne({ _id: 'b' as never })
    await things.updateOne({ _id: 'c' as never }, { $set: { code: 3 } })
    expect(await things.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'a', code: 1 },
      { _id: 'c', code: 3 },
    ])
    await client.db('wire_unique').dropDatabase()
  })

  it('closes its client connections when it stops', async () => {
    const other = await startMongoWireServer()
    const rawClient = new RawClient(other.port)
    rawClient.send(opMsg(rawClient.requestId(), { ping: 1, $db: 'admin' }))
    await rawClient.nextReply()
    await other.close()
    await rawClient.closed
  })
})

describe('mongo wire server transactions', () => {
  it('commits a transaction at once, keeps it from others until then, aborts it, and retries one that met a conflicting write', async () => {
    const server = await startMongoWireServer()
    const client = new MongoClient(server.uri)
    try {
      await client.connect()
      const things = client.db('tx').collection<{ _id: number; n?: number }>('things')
      await things.insertOne({ _id: 1, n: 0 })
      await client.withSession((session) =>
        session.withTransaction(async () => {
          await things.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session })
          await things.insertOne({ _id: 2 }, { session })
          expect(await things.countDocuments({}, { session })).toBe(2)
          // Outside the transaction: not yet.
          expect(await things.find({}).toArray()).toEqual([{ _id: 1, n: 0 }])
        }),
      )
      expect(await things.find({}).toArray()).toEqual([{ _id: 1, n: 1 }, { _id: 2 }])
      await client.withSession(async (session) => {
        session.startTransaction()
        await things.insertOne({ _id: 3 }, { session })
        await session.abortTransaction()
      })
      expect(await things.countDocuments({})).toBe(2)
      // A write outside between the transaction's start and its commit: the commit is refused as a transient
      // conflict, and the driver runs the transaction again on what is there now.
      let runs = 0
      await client.withSession((session) =>
        session.withTransaction(async () => {
          runs++
          await things.updateOne({ _id: 1 }, { $inc: { n: 10 } }, { session })
          if (runs === 1) await things.updateOne({ _id: 1 }, { $inc: { n: 100 } })
        }),
      )
      expect(runs).toBe(2)
      expect(await things.findOne({ _id: 1 })).toEqual({ _id: 1, n: 111 })
    } finally {
      await client.close()
      await server.close()
    }
  })

  it('refuses transactions when it answers as a standalone server', async () => {
    const server = await startMongoWireServer({ standalone: true })
    const client = new MongoClient(server.uri)
    try {
      await client.connect()
      const hello = await client.db('admin').command({ hello: 1 })
      expect(hello).not.toHaveProperty('setName')
      const things = client.db('tx').collection('things')
      await expect(
        client.withSession((session) => session.withTransaction(() => things.insertOne({ _id: 1 } as never, { session }))),
      ).rejects.toThrow(MongoServerError)
      expect(await things.countDocuments({})).toBe(0)
    } finally {
      await client.close()
      await server.close()
    }
  })
})
