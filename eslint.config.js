// ESLint flat config: `npm run lint` (zero warnings) and a step of `npm test`.
import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import { createNodeResolver, importX } from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import { defineConfig } from 'eslint/config'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/** Every folder of app/features: a new feature is kept apart from the others without a change here. */
const FEATURES = readdirSync(new URL('./app/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

/**
 * The only imports allowed from one feature into another (paths inside app/features). A feature otherwise uses
 * app/lib, app/components and contract/ only; add a line here, with its reason, rather than reach across.
 */
const FEATURE_EXCEPTIONS = [
  // Every screen that writes shows the same "needs the network" gate while offline.
  { from: '*', to: 'offline/components/needs-network.tsx' },
  // The detail page and the gallery's cards offer "Save for offline" and mark what is saved.
  { from: 'wumpuses', to: 'offline/components/save-offline-button.tsx' },
  { from: 'wumpuses', to: 'offline/components/save-offline-icon-button.tsx' },
  { from: 'wumpuses', to: 'offline/saved-stickers.ts' },
  { from: 'wumpuses', to: 'offline/use-saved-stickers.ts' },
  // A saved sticker is sent from the Saved page as from its own page.
  { from: 'offline', to: 'wumpuses/components/send-sticker-button.tsx' },
  // Writes made offline go through the one outbox; features name the queries a sent write changes.
  { from: '*', to: 'sync/outbox.ts' },
  { from: '*', to: 'sync/synced-queries.ts' },
  // The heart is on every card: the gallery's, the detail page's and the Saved page's.
  { from: 'wumpuses', to: 'favourites/components/favourite-button.tsx' },
  { from: 'offline', to: 'favourites/components/favourite-button.tsx' },
  // Favourites are kept on the device beside the other offline copies, and page and show like the gallery.
  { from: 'favourites', to: 'offline/offline-db.ts' },
  { from: 'favourites', to: 'wumpuses/api.ts' },
  { from: 'favourites', to: 'wumpuses/components/wumpus-card.tsx' },
  // A download is kept for offline use, and its last use recorded for pruning.
  { from: 'wumpuses', to: 'offline/kept-downloads.ts' },
  // Admin screens edit animations: they read and invalidate the animation queries and show the same export facts.
  { from: 'admin', to: 'wumpuses/api.ts' },
  { from: 'admin', to: 'wumpuses/sticker-facts.ts' },
  // Making someone an admin refreshes their profile queries.
  { from: 'admin', to: 'profiles/api.ts' },
  // The upload form previews a Lottie with the same player the profile pages use.
  { from: 'admin', to: 'profiles/components/lottie-player.tsx' },
  // Admin pages check the caller's admin role, and a role change refreshes it.
  { from: 'admin', to: 'auth/api.ts' },
  // A user's animations on their profile are the gallery's list of that user.
  { from: 'profiles', to: 'wumpuses/api.ts' },
  // The dashboard shows the signed-in user's animations with the profile's grid and the gallery's cards.
  { from: 'dashboard', to: 'profiles/components/user-animation-grid.tsx' },
  { from: 'dashboard', to: 'wumpuses/components/wumpus-card.tsx' },
  // A pack shows its stickers with the gallery's cards and pictures, and its editor searches the gallery.
  { from: 'packs', to: 'wumpuses/components/wumpus-card.tsx' },
  { from: 'packs', to: 'wumpuses/components/wumpus-card.module.css' },
  { from: 'packs', to: 'wumpuses/components/sticker-picture.tsx' },
  { from: 'packs', to: 'wumpuses/api.ts' },
  // The admin's pack screens are admin screens: the same table and icons.
  // Pack writes are admin actions: they refresh the activity log (its keys alone, without the admin forms' contract).
  { from: 'packs', to: 'admin/activity-keys.ts' },
  { from: 'packs', to: 'admin/components/action-icon-link.tsx' },
  { from: 'packs', to: 'admin/components/admin-icons.tsx' },
  { from: 'packs', to: 'admin/components/confirm-delete.tsx' },
  { from: 'packs', to: 'admin/components/admin-table.module.css' },
  // A pack is saved for offline like its stickers are.
  { from: 'packs', to: 'offline/components/save-pack-offline-button.tsx' },
  // A remix is an animation: its pages read the animation queries, list with the gallery's cards and delete
  // like a pack; the detail page offers Make it yours or a remix's own controls, and My animation lists remixes.
  { from: 'remix', to: 'wumpuses/api.ts' },
  { from: 'remix', to: 'wumpuses/components/wumpus-card.tsx' },
  { from: 'remix', to: 'admin/components/confirm-delete.tsx' },
  { from: 'remix', to: 'offline/use-online.ts' },
  { from: 'wumpuses', to: 'remix/components/remix-on-detail.tsx' },
  { from: 'dashboard', to: 'remix/components/my-remixes.tsx' },
]

const featureZones = FEATURES.map((feature) => ({
  target: `app/features/${feature}`,
  from: 'app/features',
  except: [`./${feature}`, ...FEATURE_EXCEPTIONS.filter(({ from }) => from === '*' || from === feature).map(({ to }) => `./${to}`)],
  message: 'Features import app/lib, app/components and contract/, not each other (exceptions: FEATURE_EXCEPTIONS in eslint.config.js).',
}))

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
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: [...layerZones, ...featureZones] }],
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
    // A feature's tests may render the screens of other features that use it (the offline gate's test renders them).
    files: ['app/**/*.test.{ts,tsx}'],
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
