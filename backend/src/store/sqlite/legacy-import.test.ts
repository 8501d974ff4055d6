import { appendFile, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import Datastore from '@seald-io/nedb'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Store } from '../port'
import { Database } from './database'
import type { ImportReport } from './legacy-import'
import { openSqliteStore } from './open-sqlite-store'

/**
 * A data folder of the store before SQLite, written by nedb itself (the format that store kept): records
 * inserted, updated and removed, so the files hold their history; then damage of the kinds a crash or a
 * full disk leaves.
 */
const id = (n: number) => n.toString(16).padStart(24, 'a')
const at = (minute: number) => new Date(Date.UTC(2025, 5, 1, 0, minute))
const files = (n: number) => ({
  gif: { id: id(1000 + n * 3), filename: `w${n}.gif` },
  apng: { id: id(1001 + n * 3), filename: `w${n}.png` },
  lottie: { id: id(1002 + n * 3), filename: `w${n}.json` },
})
const derived = (n: number) => ({
  source: files(n).lottie.id,
  version: 3,
  madeAt: at(50),
  previews: {
    small: {
      id: id(5000 + n),
      filename: 's.webp',
      contentType: 'image/webp',
      bytes: 10,
      width: 300,
      height: 300,
      frames: 30,
      durationMs: 1000,
    },
    large: {
      id: id(6000 + n),
      filename: 'l.webp',
      contentType: 'image/webp',
      bytes: 20,
      width: 600,
      height: 600,
      frames: 30,
      durationMs: 1000,
    },
    still: { id: id(7000 + n), filename: 's.png', contentType: 'image/png', bytes: 5, width: 300, height: 300, frames: 1, durationMs: 0 },
  },
  exports: [
    {
      platform: 'discord',
      file: {
        id: id(8000 + n),
        filename: 'd.png',
        contentType: 'image/apng',
        bytes: 30,
        width: 320,
        height: 320,
        frames: 30,
        durationMs: 1000,
      },
      notes: [],
    },
    { platform: 'telegram', notes: ['Too long'] },
  ],
})

async function writeOldFolder(dataDir: string): Promise<void> {
  const open = async (name: string) => {
    const db = new Datastore({ filename: path.join(dataDir, `${name}.db`) })
    await db.loadDatabaseAsync()
    return db
  }
  const wumpuses = await open('wumpuses')
  await wumpuses.ensureIndexAsync({ fieldName: 'u_email' })
  for (let n = 0; n < 5; n++) {
    await wumpuses.insertAsync({
      _id: id(n),
      name: `Moon Wumpus ${n}`,
      description: 'Glows at night',
      files: files(n),
      u_email: 'maker@example.com',
      u_name: 'Maker',
      ...(n === 0 ? {} : { tags: ['night'], downloads: n }),
      createdAt: at(n),
      updatedAt: at(n),
    })
  }
  // History: renamed twice, counted, given derived media; one removed.
  await wumpuses.updateAsync({ _id: id(1) }, { $set: { name: 'Star Wumpus 1', updatedAt: at(10) } }, {})
  await wumpuses.updateAsync({ _id: id(1) }, { $set: { name: 'Sun Wumpus 1', downloads: 40, derived: derived(1) } }, {})
  await wumpuses.removeAsync({ _id: id(4) }, {})

  const fileStore = await open('files')
  for (let n = 0; n < 12; n++) {
    await fileStore.insertAsync({
      _id: id(1000 + n),
      contentType: 'image/gif',
      filename: `f${n}.gif`,
      size: 10 + n,
      sha256: 'ab'.repeat(32),
      createdAt: at(n),
      ...(n === 11 ? { owner: 'ann@example.com', purpose: 'image' } : {}),
    })
  }
  await fileStore.removeAsync({ _id: id(1010) }, {})

  const users = await open('users')
  await users.ensureIndexAsync({ fieldName: 'email', unique: true })
  await users.insertAsync({
    _id: id(9000),
    email: 'ann@example.com',
    user_name: 'Ann',
    role: 'user',
    photo: '',
    cover: '',
    url: '',
    job: '',
    description: '',
    createdAt: at(1),
    updatedAt: at(1),
  })
  await users.updateAsync({ _id: id(9000) }, { $set: { role: 'admin', firebaseUid: 'uid-ann', job: 'Curator' } }, {})

  const sessions = await open('sessions')
  await sessions.insertAsync({
    _id: 'c'.repeat(32),
    email: 'ann@example.com',
    uid: 'uid-ann',
    createdAt: at(2),
    expiresAt: new Date('2099-01-01'),
  })
  await sessions.insertAsync({
    _id: 'd'.repeat(32),
    email: 'ann@example.com',
    uid: 'uid-ann',
    createdAt: at(2),
    expiresAt: new Date('2099-01-01'),
  })
  await sessions.removeAsync({ _id: 'd'.repeat(32) }, {})

  const packs = await open('packs')
  await packs.insertAsync({
    _id: id(9100),
    name: 'Night Pack',
    description: 'Moons',
    coverWumpusId: id(2),
    wumpusIds: [id(2), id(1), id(3)],
    createdBy: 'ann@example.com',
    createdAt: at(20),
    updatedAt: at(20),
  })

  const audit = await open('audit')
  await audit.insertAsync({
    _id: id(9200),
    at: at(21),
    actor: 'ann@example.com',
    action: 'pack.create',
    target: { type: 'pack', id: id(9100), name: 'Night Pack' },
    changes: [{ field: 'name', to: 'Night Pack' }],
  })
}

/** What a crash and a full disk leave: a garbage line, a line cut short with the next record glued to it, a cut last line. */
async function damage(dataDir: string): Promise<{ gluedLine: number; garbageLine: number; cutLine: number }> {
  const file = path.join(dataDir, 'wumpuses.db')
  const lines = (await readFile(file, 'utf8')).split('\n').length - 1
  const glued = {
    _id: id(7),
    name: 'Glued Wumpus',
    description: 'Written after a cut-short line',
    files: files(7),
    u_email: 'maker@example.com',
    u_name: 'Maker',
    tags: [],
    downloads: 0,
    createdAt: { $$date: at(7).getTime() },
    updatedAt: { $$date: at(7).getTime() },
  }
  await appendFile(file, 'this is not json\n')
  await appendFile(file, `{"_id":"${id(8)}","name":"Cut sh${JSON.stringify(glued)}\n`)
  await appendFile(file, `{"_id":"${id(9)}","name":"Never fini`)
  return { garbageLine: lines + 1, gluedLine: lines + 2, cutLine: lines + 3 }
}

describe('importing a data folder of the store before SQLite', () => {
  let dataDir: string
  let store: Store | undefined
  let reports: ImportReport[]
  const openStore = async () => (store = await openSqliteStore({ dataDir, onImport: (report) => reports.push(report) }))

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'wumpus-legacy-'))
    reports = []
    await writeOldFolder(dataDir)
  })

  afterEach(async () => {
    await store?.close()
    store = undefined
    await rm(dataDir, { recursive: true, force: true })
  })

  it('imports the latest version of every record, nothing removed, and keeps the old files aside with a report', async () => {
    const { garbageLine, gluedLine, cutLine } = await damage(dataDir)
    const s = await openStore()

    expect(reports).toHaveLength(1)
    const [report] = reports
    expect(report!.imported).toEqual({ users: 1, sessions: 1, files: 11, wumpuses: 5, packs: 1, audit: 1 })
    expect(report!.damaged).toEqual([
      { file: 'wumpuses.db', line: garbageLine, problem: 'not a readable JSON document' },
      { file: 'wumpuses.db', line: gluedLine, problem: 'cut short; the record after it was recovered' },
      { file: 'wumpuses.db', line: cutLine, problem: 'not a readable JSON document' },
    ])
    expect(report!.recovered).toBe(1)

    // Animations: latest versions, the removed one gone, the glued one recovered; old records get [] and 0.
    expect(await s.wumpuses.count()).toBe(5)
    expect(await s.wumpuses.get(id(4))).toBeUndefined()
    expect(await s.wumpuses.get(id(0))).toMatchObject({ name: 'Moon Wumpus 0', tags: [], downloads: 0, createdAt: at(0) })
    const sun = await s.wumpuses.get(id(1))
    expect(sun).toMatchObject({ name: 'Sun Wumpus 1', downloads: 40, tags: ['night'], updatedAt: at(10), files: files(1) })
    expect(sun?.derived).toEqual(derived(1))
    expect((await s.wumpuses.get(id(7)))?.name).toBe('Glued Wumpus')
    // Indexes follow: search, tags, order, fits, files in use.
    expect((await s.wumpuses.list({ limit: 10, q: 'moo' })).items.map((w) => w._id)).toEqual([id(3), id(2), id(0)])
    expect((await s.wumpuses.list({ limit: 10, sort: 'popular' })).items[0]?._id).toBe(id(1))
    expect(await s.wumpuses.listTags()).toEqual([{ tag: 'night', count: 3 }])
    expect((await s.wumpuses.list({ limit: 10, fits: 'discord' })).items.map((w) => w._id)).toEqual([id(1)])
    expect(await s.wumpuses.findByFile(derived(1).exports[0]!.file!.id)).toBe(id(1))
    expect(await s.wumpuses.usesFile(files(4).gif.id)).toBe(false)

    // Everything else a user had.
    expect(await s.users.get('ann@example.com')).toMatchObject({ role: 'admin', firebaseUid: 'uid-ann', job: 'Curator' })
    expect(await s.sessions.get('c'.repeat(32))).toMatchObject({ email: 'ann@example.com', uid: 'uid-ann' })
    expect(await s.sessions.get('d'.repeat(32))).toBeUndefined()
    expect(await s.files.info(id(1010))).toBeUndefined()
    expect(await s.files.info(id(1011))).toMatchObject({ owner: 'ann@example.com', purpose: 'image', size: 21 })
    expect(await s.files.listByOwner('ann@example.com', 'image')).toHaveLength(1)
    expect(await s.packs.get(id(9100))).toMatchObject({ name: 'Night Pack', wumpusIds: [id(2), id(1), id(3)], coverWumpusId: id(2) })
    expect((await s.audit.list({ limit: 5 })).items).toEqual([expect.objectContaining({ action: 'pack.create', at: at(21) })])
    // Deleting an imported animation takes it out of the imported pack.
    await s.wumpuses.delete(id(2))
    expect(await s.packs.get(id(9100))).toMatchObject({ wumpusIds: [id(1), id(3)], coverWumpusId: id(1) })

    // The old files are kept aside, with the report; none is left in the folder.
    const kept = report!.keptIn
    expect(path.dirname(kept)).toBe(dataDir)
    expect((await readdir(kept)).sort()).toEqual(
      ['audit.db', 'files.db', 'import-report.json', 'packs.db', 'sessions.db', 'users.db', 'wumpuses.db'].sort(),
    )
    expect((await readdir(dataDir)).filter((name) => name.endsWith('.db'))).toEqual([])
    const written = JSON.parse(await readFile(path.join(kept, 'import-report.json'), 'utf8')) as ImportReport
    expect(written.damaged.map((line) => line.line)).toEqual([garbageLine, gluedLine, cutLine])

    // The next start imports nothing again.
    await s.close()
    await openStore()
    expect(reports).toHaveLength(1)
    expect(await store!.wumpuses.count()).toBe(4)
  })

  it('reads a folder whose last compaction was cut short (only <name>.db~ left)', async () => {
    await rename(path.join(dataDir, 'users.db'), path.join(dataDir, 'users.db~'))
    const s = await openStore()
    expect(await s.users.get('ann@example.com')).toMatchObject({ role: 'admin' })
    expect(await readdir(reports[0]!.keptIn)).toContain('users.db~')
  })

  it('moves the old files aside without importing twice when the last start stopped right after the import', async () => {
    const first = await openStore()
    await first.users.upsert('new@example.com', {})
    await first.close()
    store = undefined
    // As if the process had died after the import committed, before the files moved.
    const kept = reports[0]!.keptIn
    for (const name of await readdir(kept)) if (name.endsWith('.db')) await rename(path.join(kept, name), path.join(dataDir, name))
    await openStore()
    expect(reports).toHaveLength(1)
    expect((await store!.users.list()).map((user) => user.email)).toEqual(['ann@example.com', 'new@example.com'])
    expect((await readdir(dataDir)).filter((name) => name.endsWith('.db'))).toEqual([])
  })

  it('starts the import again when the last one was cut short', async () => {
    // The first start died during the import: its marker is there and the tables are half full.
    await mkdir(path.join(dataDir, 'files'), { recursive: true })
    const empty = await mkdtemp(path.join(tmpdir(), 'wumpus-legacy-empty-'))
    try {
      const half = await openSqliteStore({ dataDir: empty })
      await half.users.upsert('half@example.com', {})
      await half.close()
      const db = new Database(path.join(empty, 'gallery.sqlite3'))
      db.prepare("INSERT INTO meta (key, value) VALUES ('legacy-import', 'started')").run()
      db.close()
      await writeFile(path.join(dataDir, 'gallery.sqlite3'), await readFile(path.join(empty, 'gallery.sqlite3')))
    } finally {
      await rm(empty, { recursive: true, force: true })
    }
    await openStore()
    expect(reports).toHaveLength(1)
    expect((await store!.users.list()).map((user) => user.email)).toEqual(['ann@example.com'])
    expect(await store!.wumpuses.count()).toBe(4)
  })
})
