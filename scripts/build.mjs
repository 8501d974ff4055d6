// npm run build: the PWA for browsers (dist/) and the module that server-renders its public pages
// (dist-ssr/entry-server.js). start.mjs, test.mjs and the benchmarks build through here.
import { spawnSync } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
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
  const built =
    vite(['--outDir', path.resolve(root, outDir), '--manifest']) &&
    vite(['--ssr', 'entry-server.tsx', '--outDir', path.resolve(root, ssrOutDir)])
  if (built) writeRouteModules(path.resolve(root, outDir), path.resolve(root, ssrOutDir))
  return built
}

/** In the server-rendering build: for each route id, its lazy chunk's scripts (ROUTE_MODULES_FILE in contract/ssr.ts). */
const ROUTE_MODULES_FILE = 'route-modules.json'

/**
 * A server-rendered page asks for its route's lazy chunk together with the entry, not after the entry has run
 * and found it (a waterfall of some 40 small chunks on /packs): from Vite's manifest, each route's chunks (its
 * split component and everything that imports statically) less those the entry loads anyway, by route id as
 * the router names it (the ids and files are read from the generated route tree). The manifest is not served.
 */
function writeRouteModules(outDir, ssrOutDir) {
  const manifestFile = path.join(outDir, '.vite', 'manifest.json')
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'))
  rmSync(path.dirname(manifestFile), { recursive: true, force: true })
  const closure = (keys, into = new Set()) => {
    for (const key of keys) {
      const chunk = manifest[key]
      if (!chunk || into.has(chunk.file)) continue
      into.add(chunk.file)
      closure(chunk.imports ?? [], into)
    }
    return into
  }
  const entry = closure(Object.keys(manifest).filter((key) => manifest[key].isEntry))
  const tree = readFileSync(path.join(root, 'app', 'routeTree.gen.ts'), 'utf8')
  const fileOf = new Map([...tree.matchAll(/import \{ Route as (\w+) \} from '\.\/(routes\/[^']+)'/g)].map((m) => [m[1], m[2]]))
  const routes = {}
  for (const [, id, routeImport] of tree.matchAll(
    /^ {4}'([^']+)': \{\n {6}id: [^\n]+\n(?: {6}[^\n]+\n)*? {6}preLoaderRoute: typeof (\w+)/gm,
  )) {
    const file = fileOf.get(routeImport)
    if (file === undefined) continue
    const split = Object.keys(manifest).filter(
      (key) => key.startsWith(`${file}.tsx?tsr-split=`) && key.split('=')[1].split('---').includes('component'),
    )
    const files = [...closure(split)].filter((chunk) => !entry.has(chunk))
    if (files.length > 0) routes[id] = files.map((chunk) => `/${chunk}`)
  }
  writeFileSync(path.join(ssrOutDir, ROUTE_MODULES_FILE), JSON.stringify(routes))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(buildApp() ? 0 : 1)
