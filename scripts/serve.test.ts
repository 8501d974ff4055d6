import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '..')
// npm runs scripts in the project's root, where a developer's own .env may be: this test runs the serve
// script in a folder of its own that links to the project's code, beside a .env of its own.
const folder = mkdtempSync(path.join(tmpdir(), 'wumpus-serve-'))
for (const name of ['package.json', 'node_modules', 'backend', 'contract', 'scripts'])
  symlinkSync(path.join(root, name), path.join(folder, name))
let child: ChildProcess | undefined
afterAll(() => {
  // A serve script that ignored the .env would have started a server: stop it.
  if (child?.exitCode === null) child.kill('SIGKILL')
  rmSync(folder, { recursive: true, force: true })
})

describe('npm run serve', () => {
  it('reads .env as npm start does, the environment winning over the file', async () => {
    const serve = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.serve!
    const [command, ...args] = serve.split(' ')
    expect(command).toBe('node')
    // Two bad values in the file: the server names every bad setting it reads, then stops before it opens anything.
    writeFileSync(path.join(folder, '.env'), 'PORT=not-a-port\nLOG_LEVEL=loud\n')
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', DATA_DIR: path.join(folder, 'data') }
    delete env.PORT
    const serving = spawn(process.execPath, args, { cwd: folder, env, stdio: ['ignore', 'ignore', 'pipe'] })
    child = serving
    let stderr = ''
    serving.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    expect(await new Promise((resolve) => serving.once('exit', resolve))).toBe(1)
    expect(stderr).toContain('PORT: must be a port number')
    expect(stderr).not.toContain('LOG_LEVEL')
  }, 60_000)
})
