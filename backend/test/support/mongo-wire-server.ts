/**
 * TEST SUPPORT: a small in-process server speaking enough of the MongoDB wire protocol for the
 * official driver (v7) to run the mongo store adapter over TCP. Data lives in memory only.
 * Messages: OP_MSG (kind 0 body, kind 1 document sequences, moreToCome, checksumPresent) and the
 * legacy OP_QUERY handshake answered with OP_REPLY. Query, update, sort, projection and aggregation
 * semantics come from mingo.
 */
import net from 'node:net'
import { BSON, EJSON, Long, ObjectId, type Document } from 'bson'
import { Aggregator, Query, update as applyOperators } from 'mingo'

export interface MongoWireServer {
  /** mongodb://127.0.0.1:<port> */
  uri: string
  port: number
  close(): Promise<void>
}

const OP_REPLY = 1
const OP_QUERY = 2004
const OP_MSG = 2013
const FLAG_CHECKSUM_PRESENT = 1
const FLAG_MORE_TO_COME = 2
const MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024
const MAX_MESSAGE_SIZE = 48_000_000
const DEFAULT_BATCH_SIZE = 101
/** Bytes of documents per reply batch, well below the 16 MiB document limit. */
const MAX_BATCH_BYTES = 8 * 1024 * 1024

class CommandError extends Error {
  constructor(
    readonly code: number,
    readonly codeName: string,
    message: string,
    readonly errorLabels: string[] = [],
  ) {
    super(message)
  }
}

/**
 * A transaction (one session's txnNumber): its own copy of every collection, taken at its first command
 * (documents are never mutated in place, so copying the arrays is a snapshot). Commit writes back the
 * collections it changed, unless another write changed one of them since the snapshot: then it fails with
 * WriteConflict, labelled TransientTransactionError, and the driver runs the transaction again. Coarser
 * than MongoDB (which conflicts per document), never looser.
 */
interface Transaction {
  txnNumber: number
  databases: Map<string, Map<string, Collection>>
  /** Each collection's documents when the transaction began, by "db.collection". */
  snapshot: Map<string, Document[]>
}

function sameDocs(a: readonly Document[] | undefined, b: readonly Document[] | undefined): boolean {
  if (a === b) return true
  if (!a || !b || a.length !== b.length) return false
  return a.every((doc, i) => doc === b[i])
}

interface IndexSpec {
  v: number
  key: Record<string, number | string>
  name: string
  unique?: boolean
  /** A partial index holds only the documents matching this filter. */
  partialFilterExpression?: Document
}

class Collection {
  /** Stored documents are never mutated in place: updates replace them, so cursors keep snapshots. */
  docs: Document[] = []
  indexes: IndexSpec[] = [{ v: 2, key: { _id: 1 }, name: '_id_' }]
}

interface OpenCursor {
  ns: string
  docs: Document[]
}

export interface MongoWireServerOptions {
  port?: number
  /** Told of every command run and its reply (for tests and benchmarks that count what a client asks). */
  onCommand?: (command: Document, reply: Document) => void
  /** How far this server's clock (hello's localTime) is ahead of the machine's, in ms (default 0). */
  clockOffsetMs?: number
  /**
   * Answer `hello` as a standalone server (no replica set, so no transactions). By default the server is
   * the primary of a one-member replica set "rs0" and runs transactions.
   */
  standalone?: boolean
}

export async function startMongoWireServer(options: MongoWireServerOptions = {}): Promise<MongoWireServer> {
  const engine = new Engine(options.onCommand, options.clockOffsetMs ?? 0, options.standalone === true)
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
    serveConnection(socket, engine)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as net.AddressInfo
  engine.host = `127.0.0.1:${port}`
  return {
    uri: `mongodb://127.0.0.1:${port}`,
    port,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

let nextConnectionId = 1
let nextResponseId = 1

function serveConnection(socket: net.Socket, engine: Engine): void {
  const connectionId = nextConnectionId++
  const chunks: Buffer[] = []
  let buffered = 0
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk)
    buffered += chunk.length
    while (buffered >= 4) {
      const head = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)
      chunks.length = 0
      chunks.push(head)
      const length = head.readInt32LE(0)
      if (length < 16 || length > MAX_MESSAGE_SIZE) {
        socket.destroy()
        return
      }
      if (buffered < length) return
      const message = head.subarray(0, length)
      const rest = head.subarray(length)
      chunks.length = 0
      if (rest.length > 0) chunks.push(rest)
      buffered = rest.length
      let reply: ReturnType<typeof handleMessage>
      try {
        reply = handleMessage(message, engine, connectionId)
      } catch {
        reply = 'close' // a malformed message
      }
      if (reply === 'close') {
        socket.destroy()
        return
      }
      if (reply) socket.write(reply)
    }
  })
}

/** Answers the reply bytes, undefined when no reply is due, or 'close' to drop the connection. */
function handleMessage(message: Buffer, engine: Engine, connectionId: number): Buffer | undefined | 'close' {
  const requestId = message.readInt32LE(4)
  const opCode = message.readInt32LE(12)
  if (opCode === OP_MSG) {
    const flags = message.readUInt32LE(16)
    let end = message.length
    if (flags & FLAG_CHECKSUM_PRESENT) {
      end -= 4
      if (crc32c(message.subarray(0, end)) !== message.readUInt32LE(end)) return 'close'
    }
    let command: Document
    try {
      command = parseSections(message.subarray(20, end))
    } catch {
      return 'close'
    }
    const reply = engine.run(command, connectionId)
    if (flags & FLAG_MORE_TO_COME) return undefined
    return encodeOpMsg(requestId, reply)
  }
  if (opCode === OP_QUERY) {
    // Only commands ("<db>.$cmd") are understood; the driver uses this for the first handshake.
    const nsEnd = message.indexOf(0, 20)
    const ns = message.toString('utf8', 20, nsEnd)
    const queryStart = nsEnd + 9 // after numberToSkip and numberToReturn
    const query = BSON.deserialize(message.subarray(queryStart, queryStart + message.readInt32LE(queryStart)))
    if (!ns.endsWith('.$cmd')) {
      return encodeOpReply(requestId, { $err: 'OP_QUERY is only supported for commands', code: 5739101 }, 2)
    }
    const command = '$query' in query ? (query.$query as Document) : query
    command.$db = ns.slice(0, -'.$cmd'.length)
    return encodeOpReply(requestId, engine.run(command, connectionId), 0)
  }
  return 'close'
}

function parseSections(bytes: Buffer): Document {
  let body: Document | undefined
  const sequences: Array<[string, Document[]]> = []
  let offset = 0
  while (offset < bytes.length) {
    const kind = bytes[offset]
    offset += 1
    const size = bytes.readInt32LE(offset)
    if (kind === 0) {
      body = BSON.deserialize(bytes.subarray(offset, offset + size))
    } else if (kind === 1) {
      const sectionEnd = offset + size
      const nameEnd = bytes.indexOf(0, offset + 4)
      const identifier = bytes.toString('utf8', offset + 4, nameEnd)
      const docs: Document[] = []
      let at = nameEnd + 1
      while (at < sectionEnd) {
        const docSize = bytes.readInt32LE(at)
        docs.push(BSON.deserialize(bytes.subarray(at, at + docSize)))
        at += docSize
      }
      sequences.push([identifier, docs])
    } else {
      throw new Error(`Unknown OP_MSG section kind ${kind}`)
    }
    offset += size
  }
  if (!body) throw new Error('OP_MSG without a body section')
  for (const [identifier, docs] of sequences) {
    body[identifier] = [...((body[identifier] as Document[] | undefined) ?? []), ...docs]
  }
  return body
}

function header(length: number, responseTo: number, opCode: number): Buffer {
  const bytes = Buffer.alloc(16)
  bytes.writeInt32LE(length, 0)
  bytes.writeInt32LE(nextResponseId++ & 0x7fffffff, 4)
  bytes.writeInt32LE(responseTo, 8)
  bytes.writeInt32LE(opCode, 12)
  return bytes
}

function encodeOpMsg(responseTo: number, reply: Document): Buffer {
  const body = BSON.serialize(reply)
  const flagsAndKind = Buffer.alloc(5) // flagBits 0, section kind 0
  return Buffer.concat([header(16 + 5 + body.length, responseTo, OP_MSG), flagsAndKind, body])
}

function encodeOpReply(responseTo: number, reply: Document, responseFlags: number): Buffer {
  const body = BSON.serialize(reply)
  const fields = Buffer.alloc(20)
  fields.writeInt32LE(responseFlags, 0) // then cursorId 0 (int64), startingFrom 0
  fields.writeInt32LE(1, 16) // numberReturned
  return Buffer.concat([header(16 + 20 + body.length, responseTo, OP_REPLY), fields, body])
}

const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

export function crc32c(bytes: Uint8Array): number {
  let crc = 0xffffffff
  for (const byte of bytes) crc = CRC32C_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

type Handler = (command: Document, db: string, connectionId: number) => Document

/** The in-memory databases and the command implementations. */
class Engine {
  private databases = new Map<string, Map<string, Collection>>()
  /** host:port, as hello names the replica set's one member. */
  host = '127.0.0.1:0'
  /** Transactions under way, by session id. */
  private readonly transactions = new Map<string, Transaction>()
  private readonly cursors = new Map<number, OpenCursor>()
  private nextCursorId = 1

  constructor(
    private readonly onCommand?: (command: Document, reply: Document) => void,
    private readonly clockOffsetMs = 0,
    private readonly standalone = false,
  ) {}

  private readonly handlers: Record<string, Handler> = {
    hello: (_c, _db, connectionId) => this.hello(connectionId),
    isMaster: (_c, _db, connectionId) => ({ ...this.hello(connectionId), ismaster: true }),
    ismaster: (_c, _db, connectionId) => ({ ...this.hello(connectionId), ismaster: true }),
    ping: () => ({}),
    buildInfo: () => ({ version: '7.0.0', versionArray: [7, 0, 0, 0], bits: 64, maxBsonObjectSize: MAX_BSON_OBJECT_SIZE }),
    buildinfo: () => this.handlers.buildInfo!({}, '', 0),
    getParameter: (c) => (c.featureCompatibilityVersion ? { featureCompatibilityVersion: { version: '7.0' } } : {}),
    endSessions: (c) => {
      for (const session of (c.endSessions as Document[]) ?? []) this.transactions.delete(sessionKey(session))
      return {}
    },
    commitTransaction: (c) => this.commitTransaction(c),
    abortTransaction: (c) => this.abortTransaction(c),
    listDatabases: () => ({
      databases: [...this.databases.keys()].map((name) => ({ name, sizeOnDisk: 0, empty: false })),
      totalSize: 0,
    }),
    insert: (c, db) => this.insert(db, c),
    find: (c, db) => this.find(db, c),
    getMore: (c) => this.getMore(c),
    killCursors: (c) => this.killCursors(c),
    update: (c, db) => this.update(db, c),
    delete: (c, db) => this.delete(db, c),
    findAndModify: (c, db) => this.findAndModify(db, c),
    count: (c, db) => this.count(db, c),
    aggregate: (c, db) => this.aggregate(db, c),
    distinct: (c, db) => this.distinct(db, c),
    create: (c, db) => this.create(db, c),
    createIndexes: (c, db) => this.createIndexes(db, c),
    listIndexes: (c, db) => this.listIndexes(db, c),
    dropIndexes: (c, db) => this.dropIndexes(db, c),
    listCollections: (c, db) => this.listCollections(db, c),
    drop: (c, db) => this.drop(db, c),
    dropDatabase: (_c, db) => {
      this.databases.delete(db)
      return { dropped: db }
    },
  }

  run(command: Document, connectionId: number): Document {
    const reply = this.reply(command, connectionId)
    this.onCommand?.(command, reply)
    return reply
  }

  private reply(command: Document, connectionId: number): Document {
    const name = Object.keys(command)[0] ?? ''
    const db = typeof command.$db === 'string' ? command.$db : 'test'
    const handler = Object.hasOwn(this.handlers, name) ? this.handlers[name] : undefined
    if (!handler) {
      return { ok: 0, errmsg: `no such command: '${name}'`, code: 59, codeName: 'CommandNotFound' }
    }
    try {
      if (command.autocommit === false && name !== 'commitTransaction' && name !== 'abortTransaction') {
        return { ...this.inTransaction(command, () => handler(command, db, connectionId)), ok: 1 }
      }
      return { ...handler(command, db, connectionId), ok: 1 }
    } catch (error) {
      if (error instanceof CommandError) {
        const labels = error.errorLabels.length > 0 ? { errorLabels: error.errorLabels } : {}
        return { ok: 0, errmsg: error.message, code: error.code, codeName: error.codeName, ...labels }
      }
      return { ok: 0, errmsg: error instanceof Error ? error.message : String(error), code: 2, codeName: 'BadValue' }
    }
  }

  // Transactions

  /** Runs a command of a transaction on its copy of the collections (begun by the command with startTransaction). */
  private inTransaction(command: Document, run: () => Document): Document {
    if (this.standalone) {
      throw new CommandError(20, 'IllegalOperation', 'Transaction numbers are only allowed on a replica set member or mongos')
    }
    const key = sessionKey(command.lsid)
    const txnNumber = Number(command.txnNumber)
    let transaction = this.transactions.get(key)
    if (command.startTransaction === true) {
      const databases = new Map<string, Map<string, Collection>>()
      const snapshot = new Map<string, Document[]>()
      for (const [dbName, collections] of this.databases) {
        const copies = new Map<string, Collection>()
        for (const [name, collection] of collections) {
          const copy = new Collection()
          copy.docs = [...collection.docs]
          copy.indexes = collection.indexes
          copies.set(name, copy)
          snapshot.set(`${dbName}.${name}`, [...collection.docs])
        }
        databases.set(dbName, copies)
      }
      transaction = { txnNumber, databases, snapshot }
      this.transactions.set(key, transaction)
    }
    if (!transaction || transaction.txnNumber !== txnNumber) {
      throw new CommandError(251, 'NoSuchTransaction', `Transaction ${txnNumber} has been aborted.`, ['TransientTransactionError'])
    }
    const outside = this.databases
    this.databases = transaction.databases
    try {
      return run()
    } finally {
      this.databases = outside
    }
  }

  private commitTransaction(c: Document): Document {
    const key = sessionKey(c.lsid)
    const transaction = this.transactions.get(key)
    if (!transaction || transaction.txnNumber !== Number(c.txnNumber)) {
      throw new CommandError(251, 'NoSuchTransaction', `Transaction ${String(c.txnNumber)} has been aborted.`, [
        'TransientTransactionError',
      ])
    }
    this.transactions.delete(key)
    const changed: Array<[string, string, Collection]> = []
    for (const [dbName, collections] of transaction.databases) {
      for (const [name, copy] of collections) {
        const before = transaction.snapshot.get(`${dbName}.${name}`)
        if (sameDocs(copy.docs, before) && before !== undefined) continue
        if (!sameDocs(this.collection(dbName, name)?.docs, before)) {
          throw new CommandError(112, 'WriteConflict', 'Write conflict during plan execution and yielding is disabled.', [
            'TransientTransactionError',
          ])
        }
        changed.push([dbName, name, copy])
      }
    }
    for (const [dbName, name, copy] of changed) this.ensureCollection(dbName, name).docs = copy.docs
    return {}
  }

  private abortTransaction(c: Document): Document {
    this.transactions.delete(sessionKey(c.lsid))
    return {}
  }

  private hello(connectionId: number): Document {
    const replicaSet = this.standalone
      ? {}
      : { setName: 'rs0', setVersion: 1, hosts: [this.host], primary: this.host, me: this.host, secondary: false }
    return {
      ...replicaSet,
      helloOk: true,
      isWritablePrimary: true,
      maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
      maxMessageSizeBytes: MAX_MESSAGE_SIZE,
      maxWriteBatchSize: 100_000,
      localTime: new Date(Date.now() + this.clockOffsetMs),
      logicalSessionTimeoutMinutes: 30,
      connectionId,
      minWireVersion: 0,
      maxWireVersion: 21,
      readOnly: false,
    }
  }

  private collection(db: string, name: string): Collection | undefined {
    return this.databases.get(db)?.get(name)
  }

  private ensureCollection(db: string, name: unknown): Collection {
    if (typeof name !== 'string' || name === '') throw new CommandError(73, 'InvalidNamespace', 'Invalid collection name')
    let database = this.databases.get(db)
    if (!database) {
      database = new Map()
      this.databases.set(db, database)
    }
    let collection = database.get(name)
    if (!collection) {
      collection = new Collection()
      database.set(name, collection)
    }
    return collection
  }

  private docsOf(db: string, name: unknown): Document[] {
    return typeof name === 'string' ? (this.collection(db, name)?.docs ?? []) : []
  }

  // Cursors

  private cursorReply(ns: string, docs: Document[], batchSize: unknown, singleBatch: boolean, field: string): Document {
    const size = typeof batchSize === 'number' && batchSize >= 0 ? batchSize : DEFAULT_BATCH_SIZE
    const batch = takeBatch(docs, size)
    const rest = docs.slice(batch.length)
    let id = 0
    if (rest.length > 0 && !singleBatch) {
      id = this.nextCursorId++
      this.cursors.set(id, { ns, docs: rest })
    }
    return { cursor: { [field]: batch, id: Long.fromNumber(id), ns } }
  }

  private getMore(c: Document): Document {
    const id = Number(c.getMore)
    const open = this.cursors.get(id)
    if (!open) throw new CommandError(43, 'CursorNotFound', `cursor id ${id} not found`)
    const size = typeof c.batchSize === 'number' && c.batchSize > 0 ? c.batchSize : Number.MAX_SAFE_INTEGER
    const batch = takeBatch(open.docs, size)
    open.docs = open.docs.slice(batch.length)
    if (open.docs.length === 0) this.cursors.delete(id)
    return { cursor: { nextBatch: batch, id: Long.fromNumber(open.docs.length === 0 ? 0 : id), ns: open.ns } }
  }

  private killCursors(c: Document): Document {
    const killed: Long[] = []
    const notFound: Long[] = []
    for (const raw of (c.cursors as unknown[]) ?? []) {
      const id = Number(raw)
      ;(this.cursors.delete(id) ? killed : notFound).push(Long.fromNumber(id))
    }
    return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [] }
  }

  // Reads

  private find(db: string, c: Document): Document {
    const docs = queryDocs(this.docsOf(db, c.find), c.filter, c.sort, c.skip, c.limit, c.projection)
    return this.cursorReply(`${db}.${c.find}`, docs, c.batchSize, c.singleBatch === true, 'firstBatch')
  }

  private count(db: string, c: Document): Document {
    return { n: queryDocs(this.docsOf(db, c.count), c.query, undefined, c.skip, c.limit).length }
  }

  private aggregate(db: string, c: Document): Document {
    const pipeline = (c.pipeline as Document[]) ?? []
    const docs = new Aggregator(pipeline).run<Document>(this.docsOf(db, c.aggregate))
    const ns = typeof c.aggregate === 'string' ? `${db}.${c.aggregate}` : `${db}.$cmd.aggregate`
    return this.cursorReply(ns, docs, (c.cursor as Document | undefined)?.batchSize, false, 'firstBatch')
  }

  private distinct(db: string, c: Document): Document {
    const seen = new Map<string, unknown>()
    for (const doc of queryDocs(this.docsOf(db, c.distinct), c.query)) {
      const value = getPath(doc, String(c.key))
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item !== undefined) seen.set(keyString([item]), item)
      }
    }
    return { values: [...seen.values()] }
  }

  // Writes

  private insert(db: string, c: Document): Document {
    const collection = this.ensureCollection(db, c.insert)
    const ns = `${db}.${c.insert}`
    const writeErrors: Document[] = []
    let n = 0
    const documents = (c.documents as Document[]) ?? []
    for (const [index, raw] of documents.entries()) {
      const doc = '_id' in raw ? raw : { _id: new ObjectId(), ...raw }
      const conflict = findConflict(collection, doc)
      if (conflict) {
        writeErrors.push({ index, ...duplicateError(ns, conflict, doc) })
        if (c.ordered !== false) break
        continue
      }
      collection.docs.push(doc)
      n++
    }
    return writeErrors.length > 0 ? { n, writeErrors } : { n }
  }

  private update(db: string, c: Document): Document {
    const collection = this.ensureCollection(db, c.update)
    const ns = `${db}.${c.update}`
    const writeErrors: Document[] = []
    const upserted: Document[] = []
    let n = 0
    let nModified = 0
    for (const [index, statement] of ((c.updates as Document[]) ?? []).entries()) {
      try {
        const matches = new Query(statement.q ?? {}).find(collection.docs).all() as Document[]
        const targets = statement.multi === true ? matches : matches.slice(0, 1)
        if (targets.length === 0 && statement.upsert === true) {
          const doc = upsertDocument(statement.q, statement.u, statement.arrayFilters)
          insertChecked(collection, ns, doc)
          upserted.push({ index, _id: doc._id })
          n++
          continue
        }
        for (const target of targets) {
          if (replaceChecked(collection, ns, target, applyUpdate(target, statement.u, statement.arrayFilters, false))) {
            nModified++
          }
          n++
        }
      } catch (error) {
        if (!(error instanceof CommandError)) throw error
        writeErrors.push({ index, code: error.code, errmsg: error.message })
        if (c.ordered !== false) break
      }
    }
    return { n, nModified, ...(upserted.length > 0 ? { upserted } : {}), ...(writeErrors.length > 0 ? { writeErrors } : {}) }
  }

  private delete(db: string, c: Document): Document {
    const collection = this.collection(db, String(c.delete))
    let n = 0
    for (const statement of (c.deletes as Document[]) ?? []) {
      if (!collection) break
      const matches = new Query(statement.q ?? {}).find(collection.docs).all() as Document[]
      const targets = new Set(statement.limit === 1 ? matches.slice(0, 1) : matches)
      collection.docs = collection.docs.filter((doc) => !targets.has(doc))
      n += targets.size
    }
    return { n }
  }

  private findAndModify(db: string, c: Document): Document {
    const collection = this.ensureCollection(db, c.findAndModify)
    const ns = `${db}.${c.findAndModify}`
    const [target] = queryDocs(collection.docs, c.query, c.sort, undefined, 1)
    const shape = (doc: Document | undefined) => (doc && c.fields ? project(doc, c.fields as Document) : (doc ?? null))
    if (c.remove === true) {
      if (target) collection.docs = collection.docs.filter((doc) => doc !== target)
      return { lastErrorObject: { n: target ? 1 : 0 }, value: shape(target) }
    }
    if (!target) {
      if (c.upsert !== true) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null }
      const doc = upsertDocument(c.query, c.update, c.arrayFilters)
      insertChecked(collection, ns, doc)
      return { lastErrorObject: { n: 1, updatedExisting: false, upserted: doc._id }, value: c.new === true ? shape(doc) : null }
    }
    const updated = applyUpdate(target, c.update, c.arrayFilters, false)
    replaceChecked(collection, ns, target, updated)
    return { lastErrorObject: { n: 1, updatedExisting: true }, value: shape(c.new === true ? updated : target) }
  }

  // Collections and indexes

  private create(db: string, c: Document): Document {
    if (this.collection(db, String(c.create))) {
      throw new CommandError(48, 'NamespaceExists', `Collection ${db}.${c.create} already exists.`)
    }
    this.ensureCollection(db, c.create)
    return {}
  }

  private createIndexes(db: string, c: Document): Document {
    const existed = this.collection(db, String(c.createIndexes)) !== undefined
    const collection = this.ensureCollection(db, c.createIndexes)
    const ns = `${db}.${c.createIndexes}`
    const before = collection.indexes.length
    for (const spec of (c.indexes as Document[]) ?? []) {
      const key = spec.key as IndexSpec['key']
      const name = typeof spec.name === 'string' ? spec.name : defaultIndexName(key)
      const same = collection.indexes.find((index) => index.name === name)
      if (same) {
        if (
          keyString([same.key]) !== keyString([key]) ||
          Boolean(same.unique) !== Boolean(spec.unique) ||
          keyString([same.partialFilterExpression ?? null]) !== keyString([spec.partialFilterExpression ?? null])
        ) {
          throw new CommandError(86, 'IndexKeySpecsConflict', `An existing index has the same name as the requested index: ${name}`)
        }
        continue
      }
      const partial = spec.partialFilterExpression as Document | undefined
      const index: IndexSpec = {
        v: 2,
        key,
        name,
        ...(spec.unique === true ? { unique: true } : {}),
        ...(partial ? { partialFilterExpression: partial } : {}),
      }
      if (index.unique) {
        const seen = new Set<string>()
        for (const doc of collection.docs) {
          const values = indexKeys(doc, index)
          if (values.some((value) => seen.has(value))) throw new CommandError(11000, 'DuplicateKey', duplicateError(ns, index, doc).errmsg)
          for (const value of values) seen.add(value)
        }
      }
      collection.indexes.push(index)
    }
    return { createdCollectionAutomatically: !existed, numIndexesBefore: before, numIndexesAfter: collection.indexes.length }
  }

  private listIndexes(db: string, c: Document): Document {
    const collection = this.collection(db, String(c.listIndexes))
    if (!collection) throw new CommandError(26, 'NamespaceNotFound', `ns does not exist: ${db}.${c.listIndexes}`)
    const ns = `${db}.${c.listIndexes}`
    return this.cursorReply(
      ns,
      collection.indexes.map((index) => ({ ...index })),
      (c.cursor as Document | undefined)?.batchSize,
      false,
      'firstBatch',
    )
  }

  private dropIndexes(db: string, c: Document): Document {
    const collection = this.collection(db, String(c.dropIndexes))
    if (!collection) throw new CommandError(26, 'NamespaceNotFound', `ns not found ${db}.${c.dropIndexes}`)
    const before = collection.indexes.length
    const wanted = c.index
    collection.indexes = collection.indexes.filter((index) => {
      if (index.name === '_id_') return true
      if (wanted === '*') return false
      return typeof wanted === 'string' ? index.name !== wanted : keyString([index.key]) !== keyString([wanted])
    })
    if (wanted !== '*' && collection.indexes.length === before) {
      throw new CommandError(27, 'IndexNotFound', `index not found with name [${String(wanted)}]`)
    }
    return { nIndexesWas: before }
  }

  private listCollections(db: string, c: Document): Document {
    const all = [...(this.databases.get(db)?.keys() ?? [])].map((name) => ({
      name,
      type: 'collection',
      options: {},
      info: { readOnly: false },
      idIndex: { v: 2, key: { _id: 1 }, name: '_id_' },
    }))
    const docs = queryDocs(all, c.filter)
    return this.cursorReply(`${db}.$cmd.listCollections`, docs, (c.cursor as Document | undefined)?.batchSize, false, 'firstBatch')
  }

  private drop(db: string, c: Document): Document {
    const database = this.databases.get(db)
    const collection = database?.get(String(c.drop))
    database?.delete(String(c.drop))
    // MongoDB 7 answers ok for a missing collection too.
    return { ns: `${db}.${c.drop}`, nIndexesWas: collection?.indexes.length ?? 0 }
  }
}

function takeBatch(docs: Document[], size: number): Document[] {
  const batch: Document[] = []
  let bytes = 0
  for (const doc of docs) {
    if (batch.length >= size) break
    const docBytes = BSON.calculateObjectSize(doc)
    if (batch.length > 0 && bytes + docBytes > MAX_BATCH_BYTES) break
    batch.push(doc)
    bytes += docBytes
  }
  return batch
}

function queryDocs(docs: Document[], filter?: unknown, sort?: unknown, skip?: unknown, limit?: unknown, projection?: unknown): Document[] {
  const hasProjection = isObject(projection) && Object.keys(projection).length > 0
  const cursor = new Query((filter as Document | undefined) ?? {}).find(docs, hasProjection ? (projection as Document) : undefined)
  if (isObject(sort)) {
    const spec = Object.fromEntries(Object.entries(sort).filter(([key]) => key !== '$natural')) as Record<string, 1 | -1>
    if (Object.keys(spec).length > 0) cursor.sort(spec)
  }
  if (typeof skip === 'number' && skip > 0) cursor.skip(skip)
  if (typeof limit === 'number' && limit !== 0) cursor.limit(Math.abs(limit))
  return cursor.all() as Document[]
}

function project(doc: Document, projection: Document): Document {
  return (new Query({}).find([doc], projection).all()[0] as Document | undefined) ?? {}
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  return isObject(value) && Object.keys(value).length > 0 && Object.keys(value).every((key) => key.startsWith('$'))
}

/** A deep copy that keeps BSON types (ObjectId, Binary, Date...) exactly. */
function clone(doc: Document): Document {
  return BSON.deserialize(BSON.serialize(doc))
}

function sameDocument(a: Document, b: Document): boolean {
  return Buffer.from(BSON.serialize(a)).equals(Buffer.from(BSON.serialize(b)))
}

function getPath(doc: unknown, path: string): unknown {
  let value: unknown = doc
  for (const part of path.split('.')) {
    if (!isObject(value)) return undefined
    value = value[part]
  }
  return value
}

function setPath(doc: Document, path: string, value: unknown): void {
  const parts = path.split('.')
  let target: Document = doc
  for (const part of parts.slice(0, -1)) {
    if (!isObject(target[part])) target[part] = {}
    target = target[part] as Document
  }
  target[parts[parts.length - 1]!] = value
}

/** Applies an update (operators, replacement or pipeline) to a copy of the document. */
function applyUpdate(doc: Document, update: unknown, arrayFilters: unknown, inserting: boolean): Document {
  const next = clone(doc)
  if (Array.isArray(update)) {
    const [result] = new Aggregator(update as Document[]).run<Document>([next])
    return keepId(doc, { ...result, _id: next._id })
  }
  if (!isObject(update)) throw new CommandError(9, 'FailedToParse', 'Update document must be an object')
  const keys = Object.keys(update)
  if (keys.length > 0 && keys.every((key) => key.startsWith('$'))) {
    const { $setOnInsert, ...operators } = update as Record<string, Document>
    if (inserting && $setOnInsert) operators.$set = { ...$setOnInsert, ...operators.$set }
    // mingo never sets _id; an upsert may, and setting it to its current value is allowed.
    if (operators.$set && '_id' in operators.$set) {
      const { _id, ...rest } = operators.$set
      if (next._id === undefined) next._id = _id
      else if (keyString([next._id]) !== keyString([_id])) keepId(next, { _id })
      operators.$set = rest
    }
    for (const [operator, fields] of Object.entries(operators)) {
      if (isObject(fields) && Object.keys(fields).length === 0) delete operators[operator]
    }
    if (Object.keys(operators).length > 0) {
      applyOperators(next, operators, arrayFilters as Document[] | undefined, undefined, { cloneMode: 'deep' })
    }
    return keepId(doc, next)
  }
  if (keys.some((key) => key.startsWith('$'))) {
    throw new CommandError(9, 'FailedToParse', 'Update mixes operators and fields')
  }
  return keepId(doc, { _id: doc._id, ...update })
}

/** A session's id (lsid) as a map key. */
function sessionKey(lsid: unknown): string {
  return EJSON.stringify((lsid as Document | undefined)?.id ?? null)
}

function keepId(before: Document, after: Document): Document {
  if (before._id !== undefined && keyString([before._id]) !== keyString([after._id])) {
    throw new CommandError(66, 'ImmutableField', "Performing an update on the path '_id' would modify the immutable field '_id'")
  }
  return after
}

/** The document an upsert inserts: the query's equality fields, then the update. */
function upsertDocument(query: unknown, update: unknown, arrayFilters: unknown): Document {
  const base: Document = {}
  const collect = (filter: unknown) => {
    if (!isObject(filter)) return
    for (const [key, value] of Object.entries(filter)) {
      if (key === '$and' && Array.isArray(value)) value.forEach(collect)
      else if (key.startsWith('$')) continue
      else if (isOperatorObject(value)) {
        if ('$eq' in value) setPath(base, key, value.$eq)
      } else setPath(base, key, value)
    }
  }
  collect(query)
  const doc = applyUpdate(base, update, arrayFilters, true)
  return '_id' in doc ? doc : { _id: new ObjectId(), ...doc }
}

function insertChecked(collection: Collection, ns: string, doc: Document): void {
  const conflict = findConflict(collection, doc)
  if (conflict) throw new CommandError(11000, 'DuplicateKey', duplicateError(ns, conflict, doc).errmsg)
  collection.docs.push(doc)
}

/** Replaces a stored document; answers whether it changed. */
function replaceChecked(collection: Collection, ns: string, target: Document, updated: Document): boolean {
  if (sameDocument(target, updated)) return false
  const conflict = findConflict(collection, updated, target)
  if (conflict) throw new CommandError(11000, 'DuplicateKey', duplicateError(ns, conflict, updated).errmsg)
  collection.docs[collection.docs.indexOf(target)] = updated
  return true
}

function keyString(values: unknown[]): string {
  return EJSON.stringify(values, { relaxed: true })
}

/**
 * The keys a document has in an index. A field holding an array gives one key per element (a
 * multikey index), so a unique index then refuses an element that another document has.
 */
function indexKeys(doc: Document, index: IndexSpec): string[] {
  // Stored documents never change (updates replace them), so their keys are worked out once per index's fields and filter.
  const paths = `${Object.keys(index.key).join('\0')}\0${keyString([index.partialFilterExpression ?? null])}`
  let byPaths = KEYS_OF.get(doc)
  if (!byPaths) {
    byPaths = new Map()
    KEYS_OF.set(doc, byPaths)
  }
  let keys = byPaths.get(paths)
  if (!keys) {
    keys = computeIndexKeys(doc, index)
    byPaths.set(paths, keys)
  }
  return keys
}

const KEYS_OF = new WeakMap<Document, Map<string, string[]>>()

function computeIndexKeys(doc: Document, index: IndexSpec): string[] {
  if (index.partialFilterExpression && !new Query(index.partialFilterExpression).test(doc)) return []
  const values = Object.keys(index.key).map((path) => getPath(doc, path) ?? null)
  const arrayAt = values.findIndex(Array.isArray)
  if (arrayAt < 0) return [keyString(values)]
  const elements = values[arrayAt] as unknown[]
  return [
    ...new Set((elements.length > 0 ? elements : [null]).map((element) => keyString(values.map((v, i) => (i === arrayAt ? element : v))))),
  ]
}

function findConflict(collection: Collection, doc: Document, except?: Document): IndexSpec | undefined {
  for (const index of collection.indexes) {
    if (!index.unique && index.name !== '_id_') continue
    const keys = indexKeys(doc, index)
    if (collection.docs.some((other) => other !== except && indexKeys(other, index).some((key) => keys.includes(key)))) return index
  }
  return undefined
}

function duplicateError(
  ns: string,
  index: IndexSpec,
  doc: Document,
): { code: number; errmsg: string; keyPattern: Document; keyValue: Document } {
  const keyValue = Object.fromEntries(Object.keys(index.key).map((path) => [path, getPath(doc, path) ?? null]))
  const shown = Object.entries(keyValue)
    .map(([path, value]) => `${path}: ${EJSON.stringify(value, { relaxed: true })}`)
    .join(', ')
  return {
    code: 11000,
    errmsg: `E11000 duplicate key error collection: ${ns} index: ${index.name} dup key: { ${shown} }`,
    keyPattern: index.key,
    keyValue,
  }
}

function defaultIndexName(key: IndexSpec['key']): string {
  return Object.entries(key)
    .map(([field, direction]) => `${field}_${direction}`)
    .join('_')
}
