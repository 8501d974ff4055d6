// npm test: type-check, lint, build the app, run every vitest project (backend-unit, backend, app, e2e), then print the
// closing line `N passed, N failed` that CI reads. Extra arguments go to vitest (e.g. a file filter).
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildApp } from './build.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
process.chdir(root)
const run = (args, extraEnv = {}) =>
  spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...extraEnv } }).status === 0

let passed = 0
let failed = 0
const step = (name, ok) => {
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name}`)
  if (ok) passed++
  else failed++
  return ok
}

step('type-check (tsc -b: one project per environment)', run(['node_modules/typescript/bin/tsc', '-b']))
// Lint and format count as one check, like the type-check: both tools run so that each prints what it found.
const eslintClean = run(['node_modules/eslint/bin/eslint.js', '--max-warnings', '0', '.'])
const formatted = run(['node_modules/prettier/bin/prettier.cjs', '--check', '.'])
step('lint (eslint --max-warnings 0, prettier --check: `npm run lint`, `npm run format`)', eslintClean && formatted)
const built = step('build (vite: app and server rendering)', buildApp())

const report = path.join(root, '.tmp', 'vitest-report.json')
mkdirSync(path.dirname(report), { recursive: true })
rmSync(report, { force: true })
const projects = built ? [] : ['--project', 'backend-unit', '--project', 'backend', '--project', 'app']
const vitestOk = run([
  'node_modules/vitest/vitest.mjs',
  'run',
  ...projects,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...process.argv.slice(2),
])
try {
  const result = JSON.parse(readFileSync(report, 'utf8'))
  passed += result.numPassedTests
  failed += result.numFailedTests
  // A file that fails to load has no tests to count, but it is a failure all the same.
  failed += result.testResults.filter((file) => file.status === 'failed' && file.assertionResults.length === 0).length
  if (result.numPendingTests + result.numTodoTests > 0) {
    console.log(`${result.numPendingTests + result.numTodoTests} tests were skipped: that counts as a failure here.`)
    failed++
  }
  // A global setup that fails (an Auth emulator that does not start) leaves vitest with no tests to run
  // and a report of nothing failed: running no test is a failure, and so is any error vitest exits with.
  if (result.numTotalTests === 0 || (!vitestOk && result.numFailedTests === 0)) {
    console.log(result.numTotalTests === 0 ? 'vitest ran no test: that counts as a failure.' : 'vitest exited with an error (see above).')
    failed++
  }
} catch {
  console.log('vitest wrote no report')
  failed++
}
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)
