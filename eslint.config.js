// ESLint flat config: `npm run lint` (zero warnings) and a step of `npm test`.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import js from '@eslint/js'
import { createNodeResolver, importX } from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import { defineConfig } from 'eslint/config'
import globals from 'globals'
import tseslint from 'typescript-eslint'

// ---- The app's structure (app/): layers, entities and features; used by the app's block below. ----------------
//
// Shared nouns go down, composition goes up. Each layer imports only the ones before it (and contract/):
//   lib/         platform: api client, paging, local data, sync, online state, query keys, service worker glue
//   components/  shared UI with no knowledge of any feature
//   entities/    the nouns every screen shows (the wumpus and its card, the favourite heart, the saved copy)
//   features/    screens and flows, side by side: a feature does not import another
//   routes/      file routes that compose features and entities
// app/sw/ is the service worker's code (sw.ts imports it, nothing else does); app.tsx, main.tsx, router.tsx and
// entry-server.tsx start the app and may import any layer. Tests may import across (a test renders whole pages).
const APP_LAYERS = ['lib', 'components', 'entities', 'features', 'routes']
/** What starts the app: no layer imports these. */
const APP_ROOTS = ['app/app.tsx', 'app/main.tsx', 'app/router.tsx', 'app/entry-server.tsx', 'app/routeTree.gen.ts', 'app/sw.ts']

const subfolders = (folder) =>
  readdirSync(new URL(`./app/${folder}`, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)

/** app/entities, lowest first: an entity may use the ones before it (the card shows the heart and the saved mark). */
const ENTITIES = ['saved-copy', 'favourite', 'wumpus']
const unlisted = subfolders('entities').filter((entity) => !ENTITIES.includes(entity))
if (unlisted.length > 0) throw new Error(`eslint.config.js: add ${unlisted.join(', ')} to ENTITIES, in its place among the others`)

/** Every folder of app/features: a new feature is kept apart from the others without a change here. */
const FEATURES = subfolders('features')

/**
 * The only imports allowed from one feature into another, each with its reason: at most 5, each to the other
 * feature's public entry (its api.ts), each in use. Compose in a route instead where you can (the detail page's
 * route places the remix panel beside the detail); move what several features need down to entities/ or lib/.
 */
const FEATURE_EXCEPTIONS = [
  // { from: 'packs', to: 'remix/api.ts', reason: '...' },
]
const MAX_FEATURE_EXCEPTIONS = 5

/** An exception that is not needed any more (its file moved, or nothing imports it) fails lint, as do too many. */
function checkFeatureExceptions() {
  const problems = []
  if (FEATURE_EXCEPTIONS.length > MAX_FEATURE_EXCEPTIONS)
    problems.push(`${FEATURE_EXCEPTIONS.length} exceptions, at most ${MAX_FEATURE_EXCEPTIONS}`)
  for (const { from, to, reason } of FEATURE_EXCEPTIONS) {
    const [feature, ...rest] = to.split('/')
    if (!reason?.trim()) problems.push(`${from} -> ${to} has no reason`)
    if (!FEATURES.includes(from)) problems.push(`${from} -> ${to}: no feature ${from}`)
    if (rest.join('/') !== 'api.ts')
      problems.push(`${from} -> ${to}: a feature is imported only through its public entry, ${feature}/api.ts`)
    if (!existsSync(new URL(`./app/features/${to}`, import.meta.url))) problems.push(`${from} -> ${to}: the file does not exist`)
    else if (!importsOf(`app/features/${from}`).some((target) => target === `app/features/${to}`))
      problems.push(`${from} -> ${to}: not imported`)
  }
  if (problems.length > 0) throw new Error(`eslint.config.js, FEATURE_EXCEPTIONS:\n  ${problems.join('\n  ')}`)
}

/** The files (relative to the root, .ts/.tsx resolved) that the non-test sources under `folder` import. */
function importsOf(folder) {
  const targets = []
  const visit = (dir) => {
    for (const entry of readdirSync(new URL(`./${dir}`, import.meta.url), { withFileTypes: true })) {
      const file = `${dir}/${entry.name}`
      if (entry.isDirectory()) visit(file)
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        const text = readFileSync(new URL(`./${file}`, import.meta.url), 'utf8')
        for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)) {
          const target = path.posix.normalize(`${dir}/${spec}`)
          targets.push(
            ...['', '.ts', '.tsx'].map((ext) => target + ext).filter((candidate) => existsSync(new URL(`./${candidate}`, import.meta.url))),
          )
        }
      }
    }
  }
  visit(folder)
  return targets
}
checkFeatureExceptions()

const appZones = [
  // Each layer imports only the layers before it; none imports the service worker's code, test helpers or what starts the app.
  ...APP_LAYERS.map((layer, index) => ({
    target: `app/${layer}`,
    from: [...APP_LAYERS.slice(index + 1).map((higher) => `app/${higher}`), 'app/sw', 'app/test', ...APP_ROOTS],
    message: `app/${layer} imports only contract/${APP_LAYERS.slice(0, index)
      .map((lower) => `, app/${lower}`)
      .join('')} and itself: shared things go down, composition goes up (eslint.config.js).`,
  })),
  {
    target: 'app/sw',
    from: APP_LAYERS.slice(1).map((layer) => `app/${layer}`),
    message: "The service worker's code imports app/lib and contract/ only.",
  },
  ...ENTITIES.map((entity, index) => ({
    target: `app/entities/${entity}`,
    from: ENTITIES.slice(index + 1).map((higher) => `app/entities/${higher}`),
    message: `An entity uses the ones before it in ENTITIES (eslint.config.js), never one after: ${entity} comes before ${ENTITIES.slice(index + 1).join(', ')}.`,
  })).filter((zone) => zone.from.length > 0),
  ...FEATURES.map((feature) => ({
    target: `app/features/${feature}`,
    from: 'app/features',
    except: [`./${feature}`, ...FEATURE_EXCEPTIONS.filter(({ from }) => from === feature).map(({ to }) => `./${to}`)],
    message:
      'Features do not import each other: a route composes them, and what several need goes down to app/entities or app/lib (exceptions: FEATURE_EXCEPTIONS in eslint.config.js).',
  })),
]
// ---- End of the app's structure. -----------------------------------------------------------------------------

const layerZones = [
  { target: 'app', from: ['backend', 'bench', 'e2e', 'scripts'], message: 'The app imports contract/, never server code.' },
  { target: 'backend', from: 'app', message: 'The server imports contract/, never app code.' },
  { target: 'contract', from: ['app', 'backend', 'bench', 'e2e', 'scripts'], message: 'contract/ stands alone: both sides import it.' },
]

// ------------------------------------------------------------------------------------------------------------
// The backend's layers (its own block: the app's rules are above). Inside backend/src imports point one way:
// routes -> services -> store / media, with http/ at the edge; domain/ (domain errors, who asks, who may see
// an animation) and contract/ are below them all; auth/ (tokens, Firebase) sits beside media. The composition
// root (composition.ts) builds every service and app.ts the Koa app: only main.ts and tests import them.
// ------------------------------------------------------------------------------------------------------------
const SRC = 'backend/src'
const backendZones = [
  {
    target: [`${SRC}/services`, `${SRC}/store`, `${SRC}/media`, `${SRC}/domain`, `${SRC}/auth`],
    from: [`${SRC}/http`, `${SRC}/routes`],
    message:
      'Services, store, media, domain and auth never import http/ or routes/: they throw domain errors (domain/errors.ts), which the HTTP edge maps.',
  },
  {
    target: `${SRC}/store`,
    from: [`${SRC}/services`, `${SRC}/media`, `${SRC}/auth`, `${SRC}/domain`],
    message: 'The store is the bottom layer: services use it, it uses no service.',
  },
  {
    target: `${SRC}/domain`,
    from: [`${SRC}/services`, `${SRC}/media`, `${SRC}/auth`],
    message:
      "domain/ holds the rules every layer shares, with no I/O: it imports contract/ and the store's record types, nothing that does work.",
  },
  {
    target: [`${SRC}/media`, `${SRC}/auth`],
    from: `${SRC}/services`,
    message: 'media/ and auth/ are used by services, never the other way.',
  },
  {
    target: `${SRC}/http`,
    from: `${SRC}/routes`,
    message: 'http/ is the edge the routes use (error shape, mappers, caches, middleware): it does not know the routes.',
  },
]
/** The process's entry and the composition root: imported by main.ts and tests only (a route importing app.ts made a 15-file cycle). */
const backendEntryZone = {
  target: [`${SRC}/*/**`, `${SRC}/!(main|app|composition).ts`],
  from: [`${SRC}/app.ts`, `${SRC}/composition.ts`],
  message:
    'Only main.ts and tests import app.ts and the composition root; routes get their dependencies as RouteDeps (routes/route-deps.ts).',
}

export default defineConfig(
  {
    ignores: ['dist/', 'dist-ssr/', 'data/', 'coverage/', '.tmp/', 'test-results/', 'bench-results/', 'app/routeTree.gen.ts'],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'] })],
    },
    rules: {
      'import-x/first': 'error',
      'import-x/no-duplicates': 'error',
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: layerZones }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Best-effort cleanup (killing a process, removing a temp folder) ignores its failure on purpose.
      'no-empty': ['error', { allowEmptyCatch: true }],
      // `async` marks functions that implement a promise-returning interface (store adapters, Koa and msw handlers)
      // even where this one body has nothing to await.
      '@typescript-eslint/require-await': 'off',
      // The `any` these track comes in at the edges (Response.json() and JSON.parse in tests, untyped libraries)
      // where zod schemas or the tests' own assertions check the shape; no-explicit-any (on) keeps new `any` out of
      // the code. Turning them on is a follow-up: about 15 places outside tests.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // The house's stores (session, waiting update) and test doubles are objects of arrow functions passed by
      // reference (useSyncExternalStore(store.subscribe, ...)); the rule cannot tell them from `this`-using methods.
      '@typescript-eslint/unbound-method': 'off',
      // Node event handlers and timers take async functions here (a worker's message handler, a sweep timer).
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      // TanStack Router's redirect() and notFound() are thrown by design.
      '@typescript-eslint/only-throw-error': [
        'error',
        { allow: [{ from: 'package', package: '@tanstack/router-core', name: ['Redirect', 'NotFoundError'] }] },
      ],
      // An AbortSignal's reason is typed any but is the DOMException the abort carries.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true }],
      // URLSearchParams prints as its query string, whichever environment declares it.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        {
          allow: [
            { from: 'lib', name: ['Error', 'URL', 'URLSearchParams'] },
            { from: 'package', package: 'url', name: 'URLSearchParams' },
            { from: 'file', path: 'contract/web-globals.d.ts', name: 'URLSearchParams' },
          ],
        },
      ],
    },
  },
  {
    // The app's layers (appZones above), and no import cycles: a cycle through a lazy import() counts too. None
    // is needed today; one that the home page's script budget needs would be named here with its reason.
    files: ['app/**/*.{ts,tsx}'],
    // no-cycle reads the imported modules itself: with the TypeScript parser.
    settings: { 'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] } },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: [...layerZones, ...appZones] }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'idb-keyval', message: 'What the device keeps goes through app/lib/local-data/ (a store per purpose).' }] },
      ],
    },
  },
  {
    // The local data module, and the service worker that serves from it, use IndexedDB themselves; tests look into it.
    files: ['app/lib/local-data/**', 'app/sw/**', 'app/**/*.test.{ts,tsx}', 'app/test/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // A test may render whole pages, so it imports across layers and features.
    files: ['app/**/*.test.{ts,tsx}', 'app/test/**'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: layerZones }] },
  },
  {
    // Code that runs in the browser or the service worker, and contract/ that both sides share: no Node modules.
    files: ['app/**', 'contract/**'],
    ignores: ['app/**/*.test.{ts,tsx}', 'app/test/**', 'contract/**/*.test.ts'],
    rules: { 'import-x/no-nodejs-modules': 'error' },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Plain JavaScript (scripts, this file, the browser tests' gapi stand-in) is not in a TypeScript project.
    files: ['**/*.{js,mjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['e2e/support/gapi-stand-in.js'],
    languageOptions: { globals: globals.browser, sourceType: 'script' },
    // It mimics gapi's own ES5 style (`var self = this` inside constructor functions).
    rules: { '@typescript-eslint/no-this-alias': 'off' },
  },
  // ---- The backend's layers (see backendZones above) ----
  {
    // import-x reads TypeScript modules only when told their extensions (for no-cycle, which follows imports).
    files: ['backend/**/*.ts', 'contract/**/*.ts'],
    settings: { 'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'] },
  },
  {
    files: ['backend/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: import.meta.dirname, zones: [...layerZones, ...backendZones, backendEntryZone] },
      ],
      'import-x/no-cycle': 'error',
    },
  },
  {
    // Tests build the app from its composition root, as main.ts does.
    files: ['backend/**/*.test.ts', 'backend/test/**'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: [...layerZones, ...backendZones] }] },
  },
  {
    files: ['contract/**/*.ts'],
    rules: { 'import-x/no-cycle': 'error' },
  },
  // ---- end of the backend's block ----
)
