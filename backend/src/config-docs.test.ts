import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from './config'
import { codeSpans, repoFile, section, tableRows } from '../test/support/markdown'

/**
 * Settings read outside config.ts, each with the file that reads it (or hands it to a library) and the
 * text that shows it there: a reader that stops reading one fails here, and so does its documentation.
 */
const READ_ELSEWHERE: Record<string, { file: string; evidence: string }> = {
  AUTH_EMULATOR_PORT: { file: 'scripts/start.mjs', evidence: 'env.AUTH_EMULATOR_PORT' },
  FIREBASE_SERVICE_ACCOUNT_JSON: { file: 'backend/src/auth/firebase-admin.ts', evidence: 'process.env.FIREBASE_SERVICE_ACCOUNT_JSON' },
  // firebase-admin's application default credentials (google-auth-library) read it.
  GOOGLE_APPLICATION_CREDENTIALS: { file: 'backend/src/auth/firebase-admin.ts', evidence: 'applicationDefault()' },
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'wumpus-config-docs-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** Every variable loadConfig reads from the environment it is given (recorded as it reads them). */
function variablesConfigReads(): string[] {
  const read = new Set<string>()
  const given: NodeJS.ProcessEnv = { DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(48) }
  const recorded = new Proxy(given, {
    get: (target, key) => {
      if (typeof key === 'string') read.add(key)
      return target[key as string]
    },
    has: (target, key) => {
      if (typeof key === 'string') read.add(key)
      return key in target
    },
  })
  loadConfig(recorded)
  const fromSource = [...repoFile('backend/src/config.ts').matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)].map((match) => match[1]!)
  return [...read, ...fromSource].filter((key) => /^[A-Z][A-Z0-9_]*$/.test(key))
}

const sorted = (names: Iterable<string>) => [...new Set(names)].sort()

/** The variables .env.example lists, set or commented out (`# PORT=3000`). */
const inEnvExample = () => [...repoFile('.env.example').matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!)

/** The variables the README's configuration table names in its first column. */
const inReadmeTable = () => tableRows(section(repoFile('README.md'), '## Configuration')).flatMap((cells) => codeSpans(cells[0] ?? ''))

describe('the documented settings', () => {
  const expected = sorted([...variablesConfigReads(), ...Object.keys(READ_ELSEWHERE)])

  it('are read where the list says', () => {
    for (const [name, { file, evidence }] of Object.entries(READ_ELSEWHERE)) {
      expect(repoFile(file), `${name}: ${file} no longer has ${evidence}`).toContain(evidence)
    }
    expect(expected).toContain('PORT')
  })

  it('are every variable the server reads, in .env.example', () => {
    expect(sorted(inEnvExample())).toEqual(expected)
  })

  it("are every variable the server reads, in the README's configuration table", () => {
    expect(sorted(inReadmeTable())).toEqual(expected)
  })
})
