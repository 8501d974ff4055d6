import { mkdtempSync, rmSync } from 'node:fs'
import { readFile, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import Datastore from '@seald-io/nedb'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AppendLog, CorruptDataFileError } from './append-log'

interface Doc {
  _id: string
  name: string
  at?: Date
  n?: number
}

let dir: string
let file: string
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'wumpus-append-log-'))
  file = path.join(dir, 'things.db')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** A log over a map, as the embedded store keeps one per collection. */
async function openMap(indexes?: { fieldName: string; unique?: boolean }[]) {
  const docs = new Map<string, Doc>()
  const log = await AppendLog.open<Doc>(file, {
    load: (loaded) => loaded.forEach((doc) => docs.set(doc._id, doc)),
    snapshot: () => docs.values(),
    count: () => docs.size,
    indexes,
  })
  const put = (doc: Doc) => {
    docs.set(doc._id, doc)
    return log.put(doc)
  }
  const remove = (id: string) => {
    docs.delete(id)
    return log.remove(id)
  }
  return { docs, log, put, remove }
}

const lines = async () => (await readFile(file, 'utf8')).split('\n').filter(Boolean)

describe('AppendLog', () => {
  it('keeps every acknowledged write of a burst, the last one of each document winning', async () => {
    const { log, put, remove } = await openMap()
    const at = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6))
    await Promise.all(Array.from({ length: 500 }, (_, i) => put({ _id: `d${i % 50}`, name: `v${i}`, at, n: i })))
    await Promise.all([remove('d0'), remove('d1')])
    // One line per write, in the order the writes came.
    expect(await lines()).toHaveLength(502)
    await log.close()

    const reopened = await openMap()
    expect(reopened.docs.size).toBe(48)
    expect(reopened.docs.get('d49')).toEqual({ _id: 'd49', name: 'v499', at, n: 499 })
    expect(reopened.docs.get('d0')).toBeUndefined()
    // Opening rewrites the file compactly.
    expect(await lines()).toHaveLength(48)
    await reopened.log.close()
  })

  it('reads what nedb wrote (updates, deletes, dates, index lines), and nedb reads what it writes', async () => {
    const at = new Date(Date.UTC(2025, 5, 6))
    const nedb = new Datastore<Doc>({ filename: file })
    await nedb.loadDatabaseAsync()
    await nedb.ensureIndexAsync({ fieldName: 'name', unique: true })
    await nedb.insertAsync([
      { _id: 'a', name: 'Ann', at },
      { _id: 'b', name: 'Bob' },
      { _id: 'c', name: 'Cy' },
    ])
    await nedb.updateAsync({ _id: 'a' }, { $set: { n: 7 } }, {})
    await nedb.removeAsync({ _id: 'b' }, {})

    const { docs, log, put } = await openMap([{ fieldName: 'name', unique: true }])
    expect([...docs.values()].sort((x, y) => x._id.localeCompare(y._id))).toEqual([
      { _id: 'a', name: 'Ann', at, n: 7 },
      { _id: 'c', name: 'Cy' },
    ])
    await put({ _id: 'd', name: 'Dee', at })
    await log.close()

    const again = new Datastore<Doc>({ filename: file })
    await again.loadDatabaseAsync()
    expect(await again.findOneAsync({ _id: 'd' })).toEqual({ _id: 'd', name: 'Dee', at })
    expect(await again.countAsync({})).toBe(3)
    // The index line is kept, so nedb still enforces it.
    await expect(again.insertAsync({ _id: 'e', name: 'Ann' })).rejects.toMatchObject({ errorType: 'uniqueViolated' })
  })

  it('skips a last line cut short by a crash, and refuses a file that is damaged throughout', async () => {
    await writeFile(file, '{"_id":"a","name":"Ann"}\n{"_id":"b","name":"Bob"}\n{"_id":"c","na')
    const { docs, log } = await openMap()
    expect([...docs.keys()]).toEqual(['a', 'b'])
    await log.close()
    await writeFile(file, ['{"_id":"a","name":"Ann"}', 'garbage', 'more garbage', '{"_id":"b","name":"Bob"}', ''].join('\n'))
    await expect(openMap()).rejects.toBeInstanceOf(CorruptDataFileError)
  })

  it('recovers from a crash during a rewrite that left only the new file', async () => {
    await writeFile(`${file}~`, '{"_id":"a","name":"Ann"}\n')
    const { docs, log } = await openMap()
    expect([...docs.keys()]).toEqual(['a'])
    await log.close()
  })

  it('rewrites the file on its own once the appended lines far outnumber the documents', async () => {
    const { log, put } = await openMap()
    for (let round = 0; round < 11; round++)
      await Promise.all(Array.from({ length: 1000 }, (_, i) => put({ _id: `d${i % 10}`, name: `r${round}` })))
    expect((await lines()).length).toBeLessThan(10_000)
    await put({ _id: 'd0', name: 'last' })
    await log.close()
    const reopened = await openMap()
    expect(reopened.docs.get('d0')?.name).toBe('last')
    expect(reopened.docs.get('d9')?.name).toBe('r10')
    await reopened.log.close()
  })

  it('writes its file with the mode it is given', async () => {
    const log = await AppendLog.open<Doc>(file, { load: () => {}, snapshot: () => [], count: () => 0, fileMode: 0o600 })
    await log.put({ _id: 'a', name: 'Ann' })
    await log.close()
    expect((await stat(file)).mode & 0o777).toBe(0o600)
  })
})
