import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backupListSchema, backupSchema } from '../../../contract/backups'
import { expectError } from '../../test/support/error-body'
import { addWumpus, startTestServer, type TestServer } from '../../test/support/test-server'

const ADMIN = 'backup-admin@example.com'

describe('POST and GET /api/backups', () => {
  let server: TestServer
  let token: string
  beforeAll(async () => {
    server = await startTestServer({ BACKUP_KEEP: '2' })
    await server.store.users.upsert(ADMIN, { user_name: 'Admin', role: 'admin' })
    token = await server.sessionToken(ADMIN)
  })
  afterAll(() => server.close())

  it('makes a backup of the database and its files into BACKUP_DIR, lists them newest first, and keeps BACKUP_KEEP', async () => {
    const record = await addWumpus(server.store, { name: 'Backed Up' })
    const made = []
    for (let i = 0; i < 3; i++) {
      const res = await server.call('POST', '/api/backups', token)
      expect(res.status).toBe(201)
      made.push(backupSchema.parse(await res.json()))
    }
    expect(made[0]).toMatchObject({ files: 3, linkedFiles: 0 })
    // The next ones share the unchanged files with the one before.
    expect(made[2]).toMatchObject({ files: 3, linkedFiles: 3 })
    const dir = server.config.backup.dir!
    const names = (await readdir(dir)).sort()
    expect(names).toEqual([made[1]!.name, made[2]!.name].sort())
    expect(await readdir(path.join(dir, made[2]!.name, 'files'))).toEqual(
      expect.arrayContaining([record.files.gif.id, record.files.apng.id, record.files.lottie.id]),
    )

    const list = backupListSchema.parse(await (await server.call('GET', '/api/backups', token)).json())
    expect(list.backups.map((backup) => backup.name)).toEqual([made[2]!.name, made[1]!.name])
  })
})

describe('POST /api/backups without a backup folder', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ BACKUP_DIR: '' })
    await server.store.users.upsert(ADMIN, { user_name: 'Admin', role: 'admin' })
  })
  afterAll(() => server.close())

  it('says how to set backups up', async () => {
    const res = await server.call('POST', '/api/backups', await server.sessionToken(ADMIN))
    const error = await expectError(res, 409, 'CONFLICT', 'no-backup-dir')
    expect(error.message).toBe('Backups are not set up on this server: set BACKUP_DIR')
  })
})
