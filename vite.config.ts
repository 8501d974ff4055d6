import { fileURLToPath } from 'node:url'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url))

// Names the build in index.html (<meta name="build-id">): a deploy can set it; tests use it to tell versions apart.
process.env.VITE_BUILD_ID ??= 'local'

const apiProxy = {
  '/api': { target: `http://localhost:${process.env.API_PORT ?? 3000}` },
}

/** The chunk of the emoji data (contract/emoji.ts) the admin forms need. */
export const EMOJI_DATA_CHUNK = 'emoji-data'
const NAMED_CHUNKS = new Set([EMOJI_DATA_CHUNK, 'framework', 'query-hooks', 'index', 'about', 'offline-strip', 'personal-data'])

/**
 * What every page runs (React, the router, React Query, Mantine's provider) goes in one chunk. Left to
 * itself Rolldown cuts the modules the entry shares with lazy routes into dozens of small chunks, which
 * cost requests and compress worse one by one. The rest of Mantine's core (Box, the styles API) is not in
 * it: the home page renders no Mantine component, and only the pages that do load it.
 */
const FRAMEWORK_MODULES =
  /node_modules[\\/](react|react-dom|scheduler|use-sync-external-store|clsx|@tanstack[\\/][a-z-]+|@mantine[\\/]store|@mantine[\\/]core[\\/]esm[\\/]core[\\/]MantineProvider)[\\/]/

/**
 * React Query's hooks that only other pages use (mutations, suspense queries): the entry imports them
 * through the package's index, but nothing on the home page runs them. One chunk of their own, for the
 * pages that do.
 */
const LAZY_FRAMEWORK_MODULES =
  /node_modules[\\/]@tanstack[\\/](react-query[\\/]build[\\/]modern[\\/](useMutation|useSuspenseQuery|useSuspenseInfiniteQuery)|query-core[\\/]build[\\/]modern[\\/]mutationObserver)\.js$/

/**
 * The modules the entry imports statically (what every page runs), found once the module graph is built.
 * Our own ones stay in the entry chunk: Rolldown would cut those that lazy routes share too into a dozen
 * small chunks, each fetched and compressed on its own (1.5 KB gzip more for the home page).
 */
const entryModules = new Set<string>()
function findEntryModules(): Plugin {
  return {
    name: 'find-entry-modules',
    apply: 'build',
    buildEnd() {
      entryModules.clear()
      const entries = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry)
      const visit = (id: string) => {
        const info = this.getModuleInfo(id)
        if (!info) return
        for (const next of info.importedIds) {
          if (entryModules.has(next)) continue
          entryModules.add(next)
          visit(next)
        }
      }
      entries.forEach(visit)
    },
  }
}

/**
 * vite-plugin-pwa 2.0.0 builds the service worker with `output.inlineDynamicImports`, which Rolldown
 * deprecates (a boxed WARN on every build) for `codeSplitting: false`: the same output, said the new way.
 * That build also ignores the build's log level and prints its progress: it says only what goes wrong.
 */
function serviceWorkerInOneFile(): Plugin {
  return {
    name: 'service-worker-in-one-file',
    config: () => ({ logLevel: 'warn' }),
    outputOptions({ inlineDynamicImports, ...options }) {
      return inlineDynamicImports ? { ...options, codeSplitting: false } : undefined
    },
  }
}

/** Only the admin forms' emoji data may pass Vite's 500 kB warning: any other chunk that large is worth a look. */
const CHUNK_WARNING_KB = 500
function warnOfLargeChunks(): Plugin {
  return {
    name: 'warn-of-large-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || chunk.name === EMOJI_DATA_CHUNK || chunk.code.length <= CHUNK_WARNING_KB * 1000) continue
        this.warn(`${chunk.fileName} is ${Math.round(chunk.code.length / 1000)} kB after minification (over ${CHUNK_WARNING_KB} kB)`)
      }
    },
  }
}

/**
 * Build logs that say nothing to act on. lottie-web's expression engine calls `eval` (Rolldown's EVAL
 * warning, once per build of lottie-web it parses): the app never runs it, as the cards play with the light
 * build (no expressions) and the pages' CSP has no 'unsafe-eval', so an expression could not run anyway.
 */
function isExpectedLog(log: { code?: string; id?: string; message: string }): boolean {
  return log.code === 'EVAL' && /node_modules[\\/]lottie-web[\\/]/.test(log.id ?? log.message)
}

const quietLogs = (level: string, log: { code?: string; id?: string; message: string }, handler: (level: never, log: never) => void) => {
  if (!isExpectedLog(log)) handler(level as never, log as never)
}

/** Mantine indigo 9: the icons' background and the browser's title bar. */
const THEME_COLOR = '#364fc7'

export default defineConfig(({ isSsrBuild }) => ({
  root: fromRoot('./app'),
  plugins: [
    // Must run before the React plugin.
    tanstackRouter({
      target: 'react',
      routesDirectory: fromRoot('./app/routes'),
      generatedRouteTree: fromRoot('./app/routeTree.gen.ts'),
      autoCodeSplitting: true,
      // The home page is server-rendered and hydrates at once: its code is in the entry chunk (and its
      // modulepreloads) instead of a chunk found only after the entry has run.
      codeSplittingOptions: {
        splitBehavior: ({ routeId }) => (routeId === '/' ? [] : undefined),
        // Other routes' loaders travel with their components, so their data code stays out of the entry.
        defaultBehavior: [
          ['loader', 'component'],
          ['pendingComponent', 'errorComponent', 'notFoundComponent'],
        ],
      },
      quoteStyle: 'single',
      semicolons: false,
    }),
    react(),
    findEntryModules(),
    // The server build is neither minified nor sent to browsers.
    !isSsrBuild && warnOfLargeChunks(),
    // The server-rendering build (scripts/build.mjs) is a Node module: no service worker there.
    !isSsrBuild &&
      VitePWA({
        strategies: 'injectManifest',
        srcDir: '.',
        filename: 'sw.ts',
        // 'prompt': the new worker waits until the user picks Reload; sw.ts handles SKIP_WAITING itself.
        registerType: 'prompt',
        // main.tsx registers the worker with workbox-window (see lib/pwa/register-sw.ts).
        injectRegister: false,
        // The PNG icons are for installing (the system keeps its own copy then): the worker does not keep them.
        includeManifestIcons: false,
        injectManifest: {
          buildPlugins: { vite: [serviceWorkerInOneFile()] },
          globPatterns: ['**/*.{js,css,html,svg}'],
          // Only admins load it: the worker keeps it once loaded (app/sw.ts), not for everyone who keeps the app.
          globIgnores: [`**/${EMOJI_DATA_CHUNK}-*.js`],
        },
        manifest: {
          id: '/',
          name: 'Wumpus Gallery',
          short_name: 'Wumpus',
          description: 'Animated mascot stickers (wumpus) to browse, save for offline and download as GIF, APNG and Lottie.',
          lang: 'en',
          start_url: '/',
          scope: '/',
          display: 'standalone',
          theme_color: THEME_COLOR,
          background_color: '#ffffff',
          icons: [
            { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
            { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
            { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          ],
        },
        devOptions: { enabled: false },
      }),
  ],
  resolve: {
    // TanStack's store asks for the React 17 shim; React 19 has useSyncExternalStore, so the plain version does.
    alias: [{ find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: 'use-sync-external-store/with-selector.js' }],
  },
  // The server build carries its dependencies, so it runs wherever it is put (benchmarks build into /tmp).
  ssr: { noExternal: true },
  server: { port: 5173, proxy: apiProxy },
  preview: { port: 4173, proxy: apiProxy },
  build: {
    outDir: fromRoot(isSsrBuild ? './dist-ssr' : './dist'),
    copyPublicDir: !isSsrBuild,
    rolldownOptions: isSsrBuild
      ? { onLog: quietLogs }
      : {
          onLog: quietLogs,
          output: {
            // The entry lists every lazy chunk's file for preloading: bare hashes keep that list 0.8 KB gzip
            // lighter, within the home page's budget. The groups below keep their names, and so do the few
            // chunks the browser tests find by name.
            chunkFileNames: (chunk) => (NAMED_CHUNKS.has(chunk.name) ? 'assets/[name]-[hash].js' : 'assets/[hash].js'),
            codeSplitting: {
              groups: [
                // The admin forms' emoji data (about 100 KB gzip): a chunk of its own, left out of the app kept offline.
                { name: EMOJI_DATA_CHUNK, test: /[\\/]node_modules[\\/]emojibase-data[\\/]/ },
                { name: 'framework', test: (id: string) => FRAMEWORK_MODULES.test(id) && !LAZY_FRAMEWORK_MODULES.test(id) },
                { name: 'query-hooks', test: LAZY_FRAMEWORK_MODULES },
                { name: 'index', test: (id: string) => entryModules.has(id) && !id.includes('node_modules') },
              ],
            },
          },
        },
    emptyOutDir: true,
    // One stylesheet for every route (a few KB more than the home page's own), in every page's head: a route's
    // own CSS, split off with its lazy chunk, came only once its scripts ran (a pack page's downloads and
    // /packs' cards moved then: CLS 0.12).
    cssCodeSplit: false,
    // Font files stay files: the caption editor fetch()es them, and the CSP's connect-src refuses data: URLs.
    assetsInlineLimit: (file) => (file.endsWith('.woff') || file.endsWith('.woff2') ? false : undefined),
    // Its own check (warnOfLargeChunks) leaves out the emoji data, which is large on purpose.
    chunkSizeWarningLimit: Infinity,
  },
}))
