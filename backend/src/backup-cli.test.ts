import { execFile, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { wumpusListSchema } from '../../contract/wumpus'
import { addWumpus } from '../test/support/test-server'
import { freePortRun } from '../test/support/ports'
import { spawnServer, waitUntilReady } from '../test/support/server-process'
import { openSqliteStore } from './store/sqlite/open-sqlite-store'

/**
 * `npm run backup` beside the real server process (which holds the database's lock: the server makes
 * the copy, asked through its backup socket), then `npm run restore` into a new data folder, where a
 * server started again lists what was backed up.
 */
const root = path.resolve(import.meta.dirname, '../..')
const folder = mkdtempSync(path.join(tmpdir(), 'wumpus-backup-cli-'))
const children: ChildProcess[] = []
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  rmSync(folder, { recursive: true, force: true })
})

const scripts = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts

/** Runs `npm run <name> -- <arg>` as npm would (the script's own command, in the project's root). */
async function npmRun(name: 'backup' | 'restore', arg: string, dataDir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const [command, ...args] = scripts[name]!.split(' ')
  expect(command).toBe('node')
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...args, arg], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

async function startServer(dataDir: string): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePortRun(1)
  // The placeholder files are no Lottie the render worker can draw: its complaints are no news here.
  const child = spawnServer({ port, dataDir, env: { LOG_LEVEL: 'silent' } })
  children.push(child)
  const base = `http://127.0.0.1:${port}`
  await waitUntilReady(base, child)
  return { child, base }
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

describe('npm run backup and npm run restore', () => {
  it('backs up beside the running server, refuses to restore under it, and restores into a folder a new server serves', async () => {
    const dataDir = path.join(folder, 'data')
    const store = await openSqliteStore({ dataDir })
    const names = ['Kept One', 'Kept Two', 'Kept Three']
    for (const name of names) await addWumpus(store, { name })
    await store.close()

    const { child } = await startServer(dataDir)
    const backupDir = path.join(folder, 'backup')
    const backup = await npmRun('backup', backupDir, dataDir)
    expect(backup, backup.stderr).toMatchObject({ code: 0 })
    expect(backup.stdout).toContain(`Backed up ${dataDir} into ${backupDir}`)
    expect(backup.stdout).toContain('9 files')
    expect(await readdir(backupDir)).toEqual(expect.arrayContaining(['backup.json', 'gallery.sqlite3', 'files']))

    const refused = await npmRun('restore', backupDir, dataDir)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('is in use by another Wumpus Gallery server')
    await stop(child)

    const restoredDir = path.join(folder, 'restored')
    const restore = await npmRun('restore', backupDir, restoredDir)
    expect(restore, restore.stderr).toMatchObject({ code: 0 })
    expect(restore.stdout).toContain(`Restored the backup ${backupDir} into ${restoredDir}`)

    const again = await startServer(restoredDir)
    const list = wumpusListSchema.parse(await (await fetch(`${again.base}/api/wumpuses`)).json())
    expect(list.map((item) => item.name).sort()).toEqual([...names].sort())
    await stop(again.child)
  }, 120_000)

  it('backs up a data folder no server runs on, and names a folder that is not a backup', async () => {
    const dataDir = path.join(folder, 'quiet')
    const store = await openSqliteStore({ dataDir })
    await addWumpus(store)
    await store.close()
    const backup = await npmRun('backup', path.join(folder, 'quiet-backup'), dataDir)
    expect(backup, backup.stderr).toMatchObject({ code: 0 })
    expect(backup.stdout).toContain('3 files')

    const notABackup = await npmRun('restore', folder, dataDir)
    expect(notABackup.code).toBe(1)
    expect(notABackup.stderr).toContain(`${folder} is not a finished backup`)
  }, 60_000)
})
