import { spawnSync } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, stat, writeFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { StoreDamagedError, type Store } from '../port'
import { describeStoreBehaviour, sampleWumpus } from '../../../test/store-behaviour/store-behaviour'
import { Database, DatabaseNewerError, DataDirInUseError, DATABASE_FILE } from './database'
import { openSqliteStore } from './open-sqlite-store'

/** Undoes migration 8 (colour slots) on a closed store's database, for upgrade tests from before it. */
const BEFORE_COLOUR_SLOTS = 'ALTER TABLE wumpuses DROP COLUMN colour_slots'

/** Undoes the migration of tag and emoji counts without the sensitive animations (their 'st:' and 'se:' facets). */
const BEFORE_SENSITIVE_COUNTS = `
  DELETE FROM wumpus_facets WHERE (facet >= 'st:' AND facet < 'st;') OR (facet >= 'se:' AND facet < 'se;');`

/** Undoes the Telegram links migration (issue 36) and the later sensitive counts on a closed store's database (schema 17 then). */
const BEFORE_TELEGRAM_LINKS = `${BEFORE_SENSITIVE_COUNTS}
  DROP TABLE telegram_links; ALTER TABLE telegram_sets DROP COLUMN owner_user_id;`

/** Undoes migration 17 (sensitive animations and the users' choice to see them), and those after it, on a closed store's database. */
const BEFORE_SENSITIVE = `${BEFORE_TELEGRAM_LINKS}
  DELETE FROM wumpus_facets WHERE facet = 'g:'; ALTER TABLE wumpuses DROP COLUMN sensitive; ALTER TABLE users DROP COLUMN show_sensitive;`

/** Undoes migrations 13-15 and the sensitive one (licence and credit, submissions, reports, sensitive) on a closed store's database, for upgrade tests from before them. */
const BEFORE_SUBMISSIONS = `${BEFORE_SENSITIVE}
  DROP TABLE reports; DROP TABLE submissions; ALTER TABLE wumpuses DROP COLUMN licence; ALTER TABLE wumpuses DROP COLUMN credit;`

/** Undoes migration 17 (hidden animations) on a closed store's database, for upgrade tests from before it. */
const BEFORE_HIDDEN = `
  DROP INDEX wumpuses_newest; DROP INDEX wumpuses_popular; DROP INDEX wumpuses_hidden_by_owner; ALTER TABLE wumpuses DROP COLUMN hidden;
  CREATE INDEX wumpuses_newest ON wumpuses (created_at DESC, id DESC) WHERE remix_of IS NULL;
  CREATE INDEX wumpuses_popular ON wumpuses (downloads DESC, created_at DESC, id DESC) WHERE remix_of IS NULL;`

/** Undoes migration 16 (notifications) on a closed store's database, for upgrade tests from before it. */
const BEFORE_NOTIFICATIONS = 'DROP TABLE notifications'

/** Undoes migration 10 (facet counts) on a closed store's database, for upgrade tests from before it. */
const BEFORE_FACET_COUNTS = `DROP TRIGGER facet_counts_insert; DROP TRIGGER facet_counts_delete; DROP TABLE facet_counts;`

/** Undoes migration 9 (pack members by pack) on a closed store's database, for upgrade tests from before it. */
const BEFORE_PACK_MEMBERS_BY_PACK = 'DROP INDEX pack_members_by_pack'

/** Undoes migration 7 (remixes) on a closed store's database, for upgrade tests from before it. */
const BEFORE_REMIXES = `
  DROP INDEX wumpuses_remixes_by_owner; DROP INDEX wumpuses_remixes_of; DROP INDEX wumpuses_newest; DROP INDEX wumpuses_popular;
  ALTER TABLE wumpuses DROP COLUMN remix; ALTER TABLE wumpuses DROP COLUMN remix_of;
  CREATE INDEX wumpuses_newest ON wumpuses (created_at DESC, id DESC);
  CREATE INDEX wumpuses_popular ON wumpuses (downloads DESC, created_at DESC, id DESC);`

/** Undoes migration 6 (personal packs) on a closed store's database, for upgrade tests from before it. */
const BEFORE_PERSONAL_PACKS = `
  DROP INDEX packs_public_newest; DROP INDEX packs_personal_updated;
  ALTER TABLE packs DROP COLUMN visibility; ALTER TABLE packs DROP COLUMN edited_at;
  CREATE INDEX packs_newest ON packs (created_at DESC, id DESC);`

/** Undoes the Discord upload jobs' migration (issue 36, the 20th) on a closed store's database. */
const BEFORE_DISCORD_UPLOADS = 'DROP TABLE discord_uploads'
const DISCORD_UPLOADS_VERSION = 20

/** Undoes the migration that keys Telegram sets by pack and kind (issue 36, the 21st): the table as it was, its sticker sets kept. */
const BEFORE_TELEGRAM_SET_KINDS = `
  CREATE TABLE telegram_sets_by_pack (
    pack_id TEXT PRIMARY KEY, name TEXT NOT NULL, state TEXT NOT NULL, reason TEXT, removing INTEGER NOT NULL DEFAULT 0,
    generation INTEGER NOT NULL, progress TEXT NOT NULL, lease_owner TEXT, lease_until INTEGER, retry_at INTEGER,
    updated_at INTEGER NOT NULL, owner_user_id INTEGER
  ) WITHOUT ROWID;
  INSERT INTO telegram_sets_by_pack
    SELECT pack_id, name, state, reason, removing, generation, progress, lease_owner, lease_until, retry_at, updated_at, owner_user_id
    FROM telegram_sets WHERE kind = 'stickers';
  DROP TABLE telegram_sets;
  ALTER TABLE telegram_sets_by_pack RENAME TO telegram_sets;
  CREATE INDEX telegram_sets_due ON telegram_sets (state, retry_at);`
const TELEGRAM_SET_KINDS_VERSION = 21

async function tempDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'wumpus-sqlite-'))
}

describeStoreBehaviour(
  'sqlite',
  async () => {
    const dataDir = await tempDir()
    let store: Store = await openSqliteStore({ dataDir })
    return {
      store,
      reopen: async () => {
        await store.close()
        store = await openSqliteStore({ dataDir })
        return store
      },
      destroy: async () => {
        await store.close()
        await rm(dataDir, { recursive: true, force: true })
      },
    }
  },
  'sqlite',
)

describe('sqlite store on disk', () => {
  let dataDir: string
  let store: Store

  beforeEach(async () => {
    dataDir = await tempDir()
    store = await openSqliteStore({ dataDir })
  })

  afterEach(async () => {
    await store.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('keeps file bytes under files/<id> and the records in one database', async () => {
    const info = await store.files.put({ bytes: new Uint8Array([7, 8, 9]), contentType: 'image/gif', filename: 'x.gif' })
    expect((await readdir(path.join(dataDir, 'files'))).filter((name) => !name.startsWith('.'))).toEqual([info.id])
    expect(Array.from(await readFile(path.join(dataDir, 'files', info.id)))).toEqual([7, 8, 9])
    await store.close()
    expect((await readdir(dataDir)).sort()).toEqual(['files', DATABASE_FILE])
    store = await openSqliteStore({ dataDir })
  })

  it('keeps its folders and files private to the owner', async () => {
    const info = await store.files.put({ bytes: new Uint8Array([7]), contentType: 'image/gif', filename: 'x.gif' })
    await store.users.upsert('ann@example.com', { user_name: 'Ann' })
    const mode = async (name: string) => (await stat(path.join(dataDir, name))).mode & 0o777
    expect(await mode('.')).toBe(0o700)
    expect(await mode('files')).toBe(0o700)
    expect(await mode(`files/${info.id}`)).toBe(0o600)
    expect(await mode(DATABASE_FILE)).toBe(0o600)
    expect(await mode(`${DATABASE_FILE}-wal`)).toBe(0o600)
  })

  it('refuses a second opener of the same folder, in this process and in another, and leaves the first working', async () => {
    const record = await store.wumpuses.insert(sampleWumpus())
    await expect(openSqliteStore({ dataDir })).rejects.toBeInstanceOf(DataDirInUseError)
    const other = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { openSqliteStore } from ${JSON.stringify(path.resolve(import.meta.dirname, 'open-sqlite-store.ts'))}
         openSqliteStore({ dataDir: ${JSON.stringify(dataDir)} }).then(() => process.exit(0), (error) => { console.error(error.message); process.exit(3) })`,
      ],
      { encoding: 'utf8' },
    )
    expect(other.status).toBe(3)
    expect(other.stderr).toContain(`The data folder ${dataDir} is in use by another Wumpus Gallery server`)
    expect(await store.wumpuses.get(record._id)).toEqual(record)
    expect((await store.wumpuses.insert(sampleWumpus()))._id).toMatch(/^[0-9a-f]{24}$/)
    await store.close()
    // Closed: the folder is free again.
    store = await openSqliteStore({ dataDir })
    expect(await store.wumpuses.count()).toBe(2)
  })

  it('upgrades a database from before Discord upload jobs (issue 36) to one that keeps them', async () => {
    const record = await store.wumpuses.insert(sampleWumpus())
    await store.close()
    const db = new Database(path.join(dataDir, DATABASE_FILE))
    db.exec(BEFORE_TELEGRAM_SET_KINDS)
    db.exec(BEFORE_DISCORD_UPLOADS)
    db.exec(`PRAGMA user_version = ${DISCORD_UPLOADS_VERSION - 1}`)
    db.close()
    store = await openSqliteStore({ dataDir })
    expect(await store.wumpuses.get(record._id)).toEqual(record)
    const now = new Date()
    const job = { id: 'd'.repeat(24), stateHash: 'h', account: 'a@example.com', packId: 'a'.repeat(24), guildId: '1', now }
    expect(await store.discordUploads.create(job)).toMatchObject({ id: job.id, state: 'waiting' })
    expect(await store.discordUploads.claim({ owner: 'o', leaseMs: 1000, now })).toMatchObject({ record: { id: job.id } })
  })

  it('gives sessions open before the idle timeout a full idle period from the upgrade', async () => {
    const session = await store.sessions.create({ email: 'old@example.com', uid: 'u', expiresAt: new Date(Date.now() + 3_600_000) })
    await store.close()
    // The database as the version before last_used_at left it (without the later favourites too).
    const db = new Database(path.join(dataDir, DATABASE_FILE))
    db.exec(BEFORE_HIDDEN)
    db.exec(BEFORE_NOTIFICATIONS)
    db.exec(BEFORE_SUBMISSIONS)
    db.exec(BEFORE_FACET_COUNTS)
    db.exec(BEFORE_PACK_MEMBERS_BY_PACK)
    db.exec(BEFORE_COLOUR_SLOTS)
    db.exec(BEFORE_REMIXES)
    db.exec(BEFORE_PERSONAL_PACKS)
    db.exec(
      'DROP TABLE favourites; DROP INDEX sessions_by_last_use; ALTER TABLE sessions DROP COLUMN last_used_at; PRAGMA user_version = 3',
    )
    db.close()
    const upgradedAt = Date.now()
    store = await openSqliteStore({ dataDir })
    const upgraded = await store.sessions.get(session.id)
    expect(upgraded).toMatchObject({ id: session.id, email: 'old@example.com', expiresAt: session.expiresAt })
    // Whole seconds (SQLite's clock): within a second of the upgrade.
    expect(upgraded!.lastUsedAt.getTime()).toBeGreaterThanOrEqual(upgradedAt - 1000)
    expect(upgraded!.lastUsedAt.getTime()).toBeLessThanOrEqual(Date.now())
  })

  it('removes stored bytes that never got their file record (a crash in between), only when old enough', async () => {
    const kept = await store.files.put({ bytes: new Uint8Array([1]), contentType: 'image/gif', filename: 'kept.gif' })
    const stray = 'abcdefabcdefabcdefabcdef'
    await writeFile(path.join(dataDir, 'files', stray), 'bytes of a file never recorded')
    await writeFile(path.join(dataDir, 'files', 'notes.txt'), 'not ours to judge')
    await writeFile(path.join(dataDir, 'files', `${kept.id}.deadbeef.tmp`), 'a temp file of the store before SQLite')
    expect(await store.files.sweepStrayBlobs(new Date(Date.now() - 60_000))).toBe(0)
    expect(await store.files.sweepStrayBlobs(new Date(Date.now() + 1000))).toBe(2)
    expect((await readdir(path.join(dataDir, 'files'))).filter((name) => !name.startsWith('.')).sort()).toEqual(
      [kept.id, 'notes.txt'].sort(),
    )
    expect(await store.files.read(kept.id)).toBeDefined()
  })

  it('after a crash, removes bytes that never got their record before it serves again', async () => {
    await store.close()
    const stray = 'abcdefabcdefabcdefabcdef'
    const crashed = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { writeFile } from 'node:fs/promises'
         import { openSqliteStore } from ${JSON.stringify(path.resolve(import.meta.dirname, 'open-sqlite-store.ts'))}
         const store = await openSqliteStore({ dataDir: ${JSON.stringify(dataDir)} })
         const kept = await store.files.put({ bytes: new Uint8Array([1]), contentType: 'image/gif', filename: 'kept.gif' })
         await writeFile(${JSON.stringify(path.join(dataDir, 'files', stray))}, 'written, then the process died')
         console.log(kept.id)
         process.exit(9)`,
      ],
      { encoding: 'utf8' },
    )
    expect(crashed.status, crashed.stderr).toBe(9)
    store = await openSqliteStore({ dataDir })
    const kept = crashed.stdout.trim()
    expect((await readdir(path.join(dataDir, 'files'))).filter((name) => !name.startsWith('.'))).toEqual([kept])
    expect(Array.from((await store.files.read(kept))!.bytes)).toEqual([1])
    // A clean close and open leaves the folder alone (a stray of a running put is the sweeper's, by age).
    await writeFile(path.join(dataDir, 'files', stray), 'again')
    await store.close()
    store = await openSqliteStore({ dataDir })
    expect(await readdir(path.join(dataDir, 'files'))).toContain(stray)
  })

  it('drops half-written bytes when it opens', async () => {
    const info = await store.files.put({ bytes: new Uint8Array([1]), contentType: 'image/gif', filename: 'x.gif' })
    await store.close()
    await writeFile(path.join(dataDir, 'files', '.incoming', `${info.id}.deadbeef`), 'partial')
    store = await openSqliteStore({ dataDir })
    expect(await readdir(path.join(dataDir, 'files', '.incoming'))).toEqual([])
    expect(Array.from((await store.files.read(info.id))!.bytes)).toEqual([1])
  })

  it('pages 2,000 records with random times exactly like a full sort, in both orders', async () => {
    const records = []
    for (let i = 0; i < 2000; i++) {
      const createdAt = new Date(Date.UTC(2025, 0, 1) + Math.floor(Math.random() * 50) * 1000)
      records.push(await store.wumpuses.insert(sampleWumpus({ u_email: `u${i % 3}@example.com`, createdAt })))
    }
    await store.wumpuses.addDownloads(new Map(records.filter((_, i) => i % 7 === 0).map((record, i) => [record._id, 1 + (i % 4)])))
    const all = await Promise.all(records.map(async (record) => (await store.wumpuses.get(record._id))!))
    const byTime = (a: (typeof all)[number], b: (typeof all)[number]) =>
      b.createdAt.getTime() - a.createdAt.getTime() || (a._id < b._id ? 1 : -1)
    for (const sort of ['new', 'popular'] as const) {
      const expected = [...all]
        .sort((a, b) => (sort === 'popular' ? b.downloads - a.downloads : 0) || byTime(a, b))
        .map((record) => record._id)
      const ids: string[] = []
      let cursor: string | undefined
      do {
        const page = await store.wumpuses.list({ limit: 100, cursor, sort })
        ids.push(...page.items.map((item) => item._id))
        cursor = page.nextCursor
      } while (cursor)
      expect(ids, sort).toEqual(expected)
    }
  })
})

describe('sqlite store upgrades', () => {
  it('gives animations stored before render jobs their rendered version: only those below the rules asked for are work', async () => {
    const dataDir = await tempDir()
    try {
      let store = await openSqliteStore({ dataDir })
      const derivedFrom = (lottieId: string) => ({ source: lottieId, version: 1, madeAt: new Date(), exports: [] })
      const current = await store.wumpuses.insert(sampleWumpus())
      await store.wumpuses.setDerived(current._id, current.files.lottie.id, derivedFrom(current.files.lottie.id))
      const failed = await store.wumpuses.insert(sampleWumpus())
      await store.wumpuses.setDerived(failed._id, failed.files.lottie.id, { ...derivedFrom(failed.files.lottie.id), error: 'Too long' })
      const none = await store.wumpuses.insert(sampleWumpus())
      await store.close()
      // The database as version 2 left it: no render job columns (nor the sessions' last use, migration 4).
      const db = new Database(path.join(dataDir, DATABASE_FILE))
      db.exec(BEFORE_HIDDEN)
      db.exec(BEFORE_NOTIFICATIONS)
      db.exec(BEFORE_FACET_COUNTS)
      db.exec(BEFORE_PACK_MEMBERS_BY_PACK)
      db.exec(BEFORE_COLOUR_SLOTS)
      db.exec(BEFORE_REMIXES)
      db.exec(BEFORE_PERSONAL_PACKS)
      db.exec(
        'DROP TABLE favourites; DROP INDEX wumpuses_render_jobs; DROP INDEX sessions_by_last_use; ALTER TABLE sessions DROP COLUMN last_used_at',
      )
      for (const column of [
        'rendered_version',
        'render_owner',
        'render_until',
        'render_failures',
        'render_failed_version',
        'render_retry_at',
      ])
        db.exec(`ALTER TABLE wumpuses DROP COLUMN ${column}`)
      db.exec(BEFORE_SUBMISSIONS)
      db.pragma('user_version = 2')
      db.close()

      store = await openSqliteStore({ dataDir })
      const claim = (id: string) => store.renderJobs.claim({ owner: 'probe', version: 1, leaseMs: 1000, now: new Date(), id })
      expect(await claim(current._id)).toBeUndefined()
      expect((await claim(failed._id))?.record._id).toBe(failed._id)
      expect((await claim(none._id))?.record._id).toBe(none._id)
      await store.close()
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})

describe('sqlite store upgrades to personal packs', () => {
  it('makes every pack stored before public, each field edited at its updatedAt, listed at /packs and edited field by field', async () => {
    const dataDir = await tempDir()
    try {
      let store = await openSqliteStore({ dataDir })
      const wumpus = await store.wumpuses.insert(sampleWumpus())
      const old = await store.packs.insert({ name: 'Old Pack', description: '', wumpusIds: [wumpus._id], createdBy: 'boss@example.com' })
      await store.close()
      // The database as version 5 (favourites) left it.
      const db = new Database(path.join(dataDir, DATABASE_FILE))
      db.exec(BEFORE_HIDDEN)
      db.exec(BEFORE_NOTIFICATIONS)
      db.exec(BEFORE_FACET_COUNTS)
      db.exec(BEFORE_PACK_MEMBERS_BY_PACK)
      db.exec(BEFORE_COLOUR_SLOTS)
      db.exec(BEFORE_REMIXES)
      db.exec(BEFORE_PERSONAL_PACKS)
      // Made a minute ago, changed 5 s later.
      const createdAt = new Date(Date.now() - 60_000)
      const updatedAt = new Date(createdAt.getTime() + 5000)
      db.prepare('UPDATE packs SET created_at = ?, updated_at = ? WHERE id = ?').run(createdAt.getTime(), updatedAt.getTime(), old.id)
      db.exec(BEFORE_SUBMISSIONS)
      db.pragma('user_version = 5')
      db.close()

      store = await openSqliteStore({ dataDir })
      const upgraded = await store.packs.get(old.id)
      expect(upgraded).toEqual({
        ...old,
        visibility: 'public',
        createdAt,
        updatedAt,
        editedAt: { name: updatedAt, description: updatedAt, wumpusIds: updatedAt, coverWumpusId: updatedAt, visibility: updatedAt },
      })
      expect((await store.packs.list({ limit: 10 })).items.map((pack) => pack.id)).toEqual([old.id])
      expect((await store.packs.listPersonal('boss@example.com', { limit: 10 })).total).toBe(0)
      // An edit made before the pack's last known change loses; one made after wins.
      expect(
        (await store.packs.update(old.id, { name: 'Too Old' }, { editedAt: new Date(createdAt.getTime() + 1000) }))!.superseded,
      ).toEqual(['name'])
      expect((await store.packs.update(old.id, { name: 'Renamed' }))!.pack.name).toBe('Renamed')
      await store.close()
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})

describe('sqlite store upgrades to remixes', () => {
  it('keeps the animations stored before, in every list, and then keeps remixes out of the lists', async () => {
    const dataDir = await tempDir()
    try {
      let store = await openSqliteStore({ dataDir })
      const records = []
      for (let i = 0; i < 3; i++)
        records.push(await store.wumpuses.insert(sampleWumpus({ tags: ['old'], createdAt: new Date(Date.UTC(2026, 0, i + 1)) })))
      await store.wumpuses.addDownloads(new Map([[records[0]!._id, 5]]))
      const newest = await store.wumpuses.list({ limit: 10 })
      const popular = await store.wumpuses.list({ limit: 10, sort: 'popular' })
      await store.close()
      // The database as version 6 (personal packs) left it.
      const db = new Database(path.join(dataDir, DATABASE_FILE))
      db.exec(BEFORE_HIDDEN)
      db.exec(BEFORE_NOTIFICATIONS)
      db.exec(BEFORE_FACET_COUNTS)
      db.exec(BEFORE_PACK_MEMBERS_BY_PACK)
      db.exec(BEFORE_COLOUR_SLOTS)
      db.exec(BEFORE_REMIXES)
      db.exec(BEFORE_SUBMISSIONS)
      db.pragma('user_version = 6')
      db.close()

      store = await openSqliteStore({ dataDir })
      expect(await store.wumpuses.list({ limit: 10 })).toEqual(newest)
      expect(await store.wumpuses.list({ limit: 10, sort: 'popular' })).toEqual(popular)
      for (const record of records) expect((await store.wumpuses.get(record._id))!.remix).toBeUndefined()
      const original = records[1]!
      const remix = await store.wumpuses.insertRemix(
        {
          ...sampleWumpus({ tags: ['old'] }),
          remix: { of: original._id, recipe: { mirror: true }, source: original.files.lottie.id, visibility: 'private' },
        },
        { max: 1 },
      )
      expect(remix).not.toBe('full')
      expect(await store.wumpuses.list({ limit: 10 })).toEqual(newest)
      expect((await store.wumpuses.list({ limit: 10, tag: 'old' })).total).toBe(3)
      expect(await store.wumpuses.countRemixes(original._id)).toBe(1)
      await store.close()
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})

describe('sqlite store upgrades to colour slots', () => {
  it('keeps the animations stored before, without colour slots until they are read', async () => {
    const dataDir = await tempDir()
    try {
      let store = await openSqliteStore({ dataDir })
      const record = await store.wumpuses.insert(sampleWumpus())
      await store.close()
      // The database as version 7 (remixes) left it.
      const db = new Database(path.join(dataDir, DATABASE_FILE))
      db.exec(BEFORE_HIDDEN)
      db.exec(BEFORE_NOTIFICATIONS)
      db.exec(BEFORE_FACET_COUNTS)
      db.exec(BEFORE_PACK_MEMBERS_BY_PACK)
      db.exec(BEFORE_COLOUR_SLOTS)
      db.exec(BEFORE_SUBMISSIONS)
      db.pragma('user_version = 7')
      db.close()

      store = await openSqliteStore({ dataDir })
      expect(await store.wumpuses.get(record._id)).toEqual(record)
      const colourSlots = { source: record.files.lottie.id, version: 1, slots: [{ id: '5966f2', colour: '#5966f2', share: 1 }] }
      expect(await store.wumpuses.setColourSlots(record._id, colourSlots)).toBe(true)
      expect(await store.wumpuses.get(record._id)).toEqual({ ...record, colourSlots })
      await store.close()
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})

describe('sqlite store indexes', () => {
  it('upgrades to facet counts, and keeps them with later writes', async () => {
    const dataDir = await tempDir()
    try {
      let store = await openSqliteStore({ dataDir })
      const a = await store.wumpuses.insert(sampleWumpus({ tags: ['cat', 'dog'], emoji: [{ char: '🎉', name: 'party popper' }] }))
      const b = await store.wumpuses.insert(sampleWumpus({ tags: ['cat'] }))
      await store.wumpuses.addDownloads(new Map([[b._id, 7]]))
      await store.close()
      const db = new Database(path.join(dataDir, DATABASE_FILE))
      db.exec(BEFORE_HIDDEN)
      db.exec(BEFORE_NOTIFICATIONS)
      db.exec(BEFORE_FACET_COUNTS)
      db.exec(BEFORE_SUBMISSIONS)
      db.pragma('user_version = 9')
      db.close()
      store = await openSqliteStore({ dataDir })
      expect(await store.wumpuses.listTags()).toEqual([
        { tag: 'cat', count: 2 },
        { tag: 'dog', count: 1 },
      ])
      expect(await store.wumpuses.listEmoji()).toEqual([{ char: '🎉', count: 1 }])
      expect((await store.wumpuses.list({ limit: 5, sort: 'popular', tag: 'cat' })).items.map((w) => w._id)).toEqual([b._id, a._id])
      await store.wumpuses.addDownloads(new Map([[a._id, 9]]))
      await store.wumpuses.delete(b._id)
      await store.wumpuses.update(a._id, { tags: ['dog', 'eel'] })
      await store.close()
      store = await openSqliteStore({ dataDir })
      expect(await store.wumpuses.listTags()).toEqual([
        { tag: 'dog', count: 1 },
        { tag: 'eel', count: 1 },
      ])
      expect(await store.wumpuses.count()).toBe(1)
      expect((await store.wumpuses.list({ limit: 5, sort: 'popular', tag: 'eel' })).items.map((w) => w.downloads)).toEqual([9])
      await store.close()
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('upgrades to sensitive animations: those stored before are listed, not sensitive, and their users see none', async () => {
    const dataDir = await tempDir()
    try {
      let store = await openSqliteStore({ dataDir })
      const a = await store.wumpuses.insert(sampleWumpus({ tags: ['cat'], createdAt: new Date(Date.UTC(2025, 0, 1)) }))
      const b = await store.wumpuses.insert(sampleWumpus({ tags: ['cat'], createdAt: new Date(Date.UTC(2025, 0, 2)) }))
      await store.users.upsert('old@example.com', { user_name: 'Old' })
      await store.close()
      const db = new Database(path.join(dataDir, DATABASE_FILE))
      db.exec(BEFORE_DISCORD_UPLOADS)
      db.exec(BEFORE_SENSITIVE)
      db.pragma('user_version = 16') // before the sensitive migration (the 17th)
      db.close()
      store = await openSqliteStore({ dataDir })
      expect(await store.wumpuses.get(a._id)).toMatchObject({ sensitive: false })
      expect(await store.users.get('old@example.com')).toMatchObject({ showSensitive: false })
      for (const options of [{}, { tag: 'cat' }, { sort: 'popular' as const }, { q: 'wumpus' }]) {
        const page = await store.wumpuses.list({ limit: 5, ...options })
        expect(page.items.map((w) => w._id)).toEqual([b._id, a._id])
        expect(page.total).toBe(2)
      }
      await store.wumpuses.update(b._id, { sensitive: true })
      expect((await store.wumpuses.list({ limit: 5, tag: 'cat' })).items.map((w) => w._id)).toEqual([a._id])
      await store.close()
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('upgrades to tag and emoji counts without the sensitive animations: a tag only sensitive ones carry is counted only for those who see them', async () => {
    const dataDir = await tempDir()
    try {
      let store = await openSqliteStore({ dataDir })
      const emoji = (char: string) => [{ char, name: char }]
      await store.wumpuses.insert(sampleWumpus({ tags: ['cat'], emoji: emoji('🐱') }))
      await store.wumpuses.insert(sampleWumpus({ tags: ['cat', 'gore'], emoji: emoji('🩸'), sensitive: true }))
      await store.close()
      const db = new Database(path.join(dataDir, DATABASE_FILE))
      db.exec(BEFORE_SENSITIVE_COUNTS)
      db.pragma('user_version = 18') // before the sensitive counts migration (the 19th)
      db.close()
      store = await openSqliteStore({ dataDir })
      expect(await store.wumpuses.listTags()).toEqual([{ tag: 'cat', count: 1 }])
      expect(await store.wumpuses.listEmoji()).toEqual([{ char: '🐱', count: 1 }])
      expect(await store.wumpuses.listTags({ withSensitive: true })).toEqual([
        { tag: 'cat', count: 2 },
        { tag: 'gore', count: 1 },
      ])
      expect(await store.wumpuses.listEmoji({ withSensitive: true })).toEqual([
        { char: '🐱', count: 1 },
        { char: '🩸', count: 1 },
      ])
      await store.close()
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it("replaces a pack's members through the index by pack, also on a database upgraded to it", async () => {
    const dataDir = await tempDir()
    try {
      let store = await openSqliteStore({ dataDir })
      await store.close()
      const plan = () => {
        const db = new Database(path.join(dataDir, DATABASE_FILE))
        try {
          return (db.prepare('EXPLAIN QUERY PLAN DELETE FROM pack_members WHERE pack_id = ?').all('p') as { detail: string }[])
            .map((row) => row.detail)
            .join('; ')
        } finally {
          db.close()
        }
      }
      expect(plan()).toMatch(/USING (COVERING )?INDEX pack_members_by_pack/)
      const db = new Database(path.join(dataDir, DATABASE_FILE))
      db.exec(BEFORE_HIDDEN)
      db.exec(BEFORE_NOTIFICATIONS)
      db.exec(BEFORE_FACET_COUNTS)
      db.exec(BEFORE_PACK_MEMBERS_BY_PACK)
      db.exec(BEFORE_SUBMISSIONS)
      db.pragma('user_version = 8')
      db.close()
      expect(plan()).toMatch(/^SCAN pack_members/)
      store = await openSqliteStore({ dataDir })
      await store.close()
      expect(plan()).toMatch(/USING (COVERING )?INDEX pack_members_by_pack/)
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})

describe('sqlite store when the folder cannot be opened', () => {
  it('names a database with damaged pages as damaged, to be restored from a backup, and does not start on it', async () => {
    const dataDir = await tempDir()
    try {
      const store = await openSqliteStore({ dataDir })
      for (let i = 0; i < 40; i++) await store.users.upsert(`user${i}@example.com`, { user_name: 'x'.repeat(400) })
      await store.close()
      const file = path.join(dataDir, DATABASE_FILE)
      // Every page after the schema's (8 KiB pages) overwritten, as a failing disk or a bad copy might leave it.
      const bytes = await readFile(file)
      bytes.fill(0x5a, 2 * 8192)
      await writeFile(file, bytes)
      const refused = openSqliteStore({ dataDir })
      await expect(refused).rejects.toBeInstanceOf(StoreDamagedError)
      await expect(refused).rejects.toThrow(`The database ${file} is damaged (SQLITE_CORRUPT): restore it from a backup.`)
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('once an operation meets a damaged page, says so and answers not ready from then on', async () => {
    const dataDir = await tempDir()
    try {
      let store = await openSqliteStore({ dataDir })
      for (let i = 0; i < 40; i++) await store.users.upsert(`user${i}@example.com`, { user_name: 'x'.repeat(400) })
      await store.close()
      // The users table's first page overwritten: the store opens (it reads no account to start), a read finds it.
      const file = path.join(dataDir, DATABASE_FILE)
      const db = new Database(file)
      const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'users'").get() as { rootpage: number }
      const pageSize = db.pragma('page_size', { simple: true }) as number
      db.close()
      const bytes = await readFile(file)
      bytes.fill(0x5a, (rootpage - 1) * pageSize, rootpage * pageSize)
      await writeFile(file, bytes)

      store = await openSqliteStore({ dataDir })
      await store.ping()
      await expect(store.users.get('user3@example.com')).rejects.toThrow(
        'The database is damaged (SQLITE_CORRUPT): restore it from a backup',
      )
      await expect(store.ping()).rejects.toBeInstanceOf(StoreDamagedError)
      await store.close()
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('names a file that is not a database as damaged', async () => {
    const dataDir = await tempDir()
    try {
      const file = path.join(dataDir, DATABASE_FILE)
      await writeFile(file, 'not a database, whatever its name says\n'.repeat(200))
      await expect(openSqliteStore({ dataDir })).rejects.toThrow(
        `The database ${file} is damaged (SQLITE_NOTADB): restore it from a backup.`,
      )
      // Left as it was, for whoever looks into it.
      expect(await readFile(file, 'utf8')).toBe('not a database, whatever its name says\n'.repeat(200))
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('upgrades to Telegram links: sets made before keep no owner (public packs), and accounts link', async () => {
    const dataDir = await tempDir()
    try {
      let store = await openSqliteStore({ dataDir })
      const now = new Date(Date.UTC(2026, 11, 3))
      await store.telegramSets.request('aaaaaaaaaaaaaaaaaaaaaaaa', 'stickers', { name: 'a_by_bot', now })
      await store.close()
      const db = new Database(path.join(dataDir, DATABASE_FILE))
      db.exec(BEFORE_TELEGRAM_LINKS)
      db.pragma('user_version = 17') // before the Telegram links migration (the 18th)
      db.close()
      store = await openSqliteStore({ dataDir })
      const set = await store.telegramSets.get('aaaaaaaaaaaaaaaaaaaaaaaa', 'stickers')
      expect(set).toMatchObject({ name: 'a_by_bot', generation: 1 })
      expect(set).not.toHaveProperty('ownerUserId')
      await store.telegramLinks.link('ann@example.com', 42, now)
      expect(await store.telegramLinks.get('ann@example.com')).toMatchObject({ telegramUserId: 42 })
      await store.close()
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('upgrades to Telegram sets by pack and kind: each set stored before is its pack’s sticker set, and an emoji set can join it', async () => {
    const dataDir = await tempDir()
    try {
      let store = await openSqliteStore({ dataDir })
      const now = new Date(Date.UTC(2026, 11, 3))
      const pack = 'aaaaaaaaaaaaaaaaaaaaaaaa'
      await store.telegramSets.request(pack, 'stickers', { name: 'a_by_bot', ownerUserId: 11, now })
      const job = (await store.telegramSets.claim({ owner: 'o', leaseMs: 1000, now }))!
      const progress = {
        created: true,
        title: 'A',
        stickers: [{ wumpusId: pack, source: 'f', fileId: 'F', emoji: ['🙂'], keywords: [] }],
        pending: [],
      }
      await store.telegramSets.save(job, progress)
      await store.telegramSets.finish(job, { state: 'ready' })
      const before = await store.telegramSets.get(pack, 'stickers')
      await store.close()
      const db = new Database(path.join(dataDir, DATABASE_FILE))
      db.exec(BEFORE_TELEGRAM_SET_KINDS)
      db.pragma(`user_version = ${TELEGRAM_SET_KINDS_VERSION - 1}`)
      db.close()
      store = await openSqliteStore({ dataDir })
      expect(await store.telegramSets.get(pack, 'stickers')).toEqual(before)
      expect(before).toMatchObject({ kind: 'stickers', name: 'a_by_bot', ownerUserId: 11, state: 'ready', ...progress })
      expect(await store.telegramSets.get(pack, 'emoji')).toBeUndefined()
      expect(await store.telegramSets.request(pack, 'emoji', { name: 'a_e_by_bot', now })).toMatchObject({ kind: 'emoji', generation: 1 })
      expect(await store.telegramSets.get(pack, 'stickers')).toMatchObject({ generation: 1 })
      await store.close()
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('refuses a database upgraded by a newer version, and leaves it as it was', async () => {
    const dataDir = await tempDir()
    try {
      const store = await openSqliteStore({ dataDir })
      await store.users.upsert('ann@example.com', { user_name: 'Ann' })
      await store.close()
      const file = path.join(dataDir, DATABASE_FILE)
      const setVersion = (version: number) => {
        const db = new Database(file)
        if (version < 17) db.exec(BEFORE_HIDDEN)
        if (version < 16) db.exec(BEFORE_NOTIFICATIONS)
        if (version < 13) db.exec(BEFORE_SUBMISSIONS)
        db.pragma(`user_version = ${version}`)
        db.close()
      }
      setVersion(99)
      const refused = openSqliteStore({ dataDir })
      await expect(refused).rejects.toBeInstanceOf(DatabaseNewerError)
      await expect(refused).rejects.toThrow(`The database ${file} was upgraded by a newer Wumpus Gallery (schema 99;`)
      const db = new Database(file)
      expect(db.pragma('user_version', { simple: true })).toBe(99)
      db.close()
      // Back at a version this code knows, nothing was lost.
      setVersion(10)
      const reopened = await openSqliteStore({ dataDir })
      expect(await reopened.users.get('ann@example.com')).toMatchObject({ user_name: 'Ann' })
      await reopened.close()
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('says which folder holds both a database and older data files', async () => {
    const dataDir = await tempDir()
    try {
      const store = await openSqliteStore({ dataDir })
      await store.users.upsert('ann@example.com', {})
      await store.close()
      await mkdir(path.join(dataDir, 'files'), { recursive: true })
      await writeFile(path.join(dataDir, 'users.db'), '')
      await expect(openSqliteStore({ dataDir })).rejects.toThrow(`${dataDir} holds both a database and data files of the older store`)
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})
