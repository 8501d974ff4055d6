// npm run build: the PWA for browsers (dist/) and the module that server-renders its public pages
// (dist-ssr/entry-server.js). start.mjs, test.mjs and the benchmarks build through here.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** Builds both; answers whether both builds succeeded. Extra vite arguments (e.g. --sourcemap) go to both. */
export function buildApp({ outDir = 'dist', ssrOutDir = 'dist-ssr', viteArgs = [], logLevel = 'warn' } = {}) {
  const vite = (args) =>
    spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', logLevel, '--emptyOutDir', ...args, ...viteArgs], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    }).status === 0
  return vite(['--outDir', path.resolve(root, outDir)]) && vite(['--ssr', 'entry-server.tsx', '--outDir', path.resolve(root, ssrOutDir)])
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(buildApp() ? 0 : 1)
