import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appRouters } from '../app'
import { createRouteDeps } from '../composition'
import { loadConfig } from '../config'
import { createLogger } from '../logger'
import { createDerivedMediaService, type DerivedMediaService } from '../services/derived-media'
import { createDownloadCounter, type DownloadCounter } from '../services/download-counts'
import { createStore } from '../store/create-store'
import type { Store } from '../store/port'
import { anchorsOf, codeSpans, REPO_ROOT, repoFile, section, tableRows } from '../../test/support/markdown'

/**
 * The docs have a row for every endpoint of the server (docs/rest-api.md) and every page of the app
 * (docs/pages.md), and no row for one that is gone, as the authorization matrix has one for every
 * endpoint and caller. Rows name endpoints `METHOD /api/path/{param}` and pages `/path/{param}`.
 */
const REST_TABLE = { file: 'docs/rest-api.md', heading: '## Endpoints' }
const PAGES_TABLE = { file: 'docs/pages.md', heading: '## Pages' }

/** `:id` (Koa) and `$id` (TanStack) as the docs write them: `{id}`. */
const asDocumented = (route: string) => route.replace(/[:$](\w+)/g, '{$1}')

/** The first-column names of a documented table's rows that match (a query in a name is left out). */
function documentedRows({ file, heading }: { file: string; heading: string }, pattern: RegExp): string[] {
  return tableRows(section(repoFile(file), heading))
    .flatMap((cells) => codeSpans(cells[0] ?? ''))
    .filter((name) => pattern.test(name))
    .map((name) => name.replace(/\?.*$/, ''))
}

/** What is in `code` and not in `docs`, what is in `docs` and not in `code`, and what the docs list twice. */
function compare(code: string[], docs: string[]) {
  const inDocs = new Set(docs)
  const inCode = new Set(code)
  return {
    missingRows: [...inCode].filter((name) => !inDocs.has(name)).sort(),
    staleRows: [...inDocs].filter((name) => !inCode.has(name)).sort(),
    repeatedRows: docs.filter((name, i) => docs.indexOf(name) !== i),
  }
}

let dataDir: string
let store: Store
let downloads: DownloadCounter
let derivedMedia: DerivedMediaService

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'wumpus-docs-rows-'))
  store = await createStore({ dataDir })
  const logger = createLogger('silent')
  downloads = createDownloadCounter(store, { logger })
  derivedMedia = createDerivedMediaService({ store, logger, enabled: false })
})
afterAll(async () => {
  await downloads?.close()
  await derivedMedia?.close()
  await store?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

/** Every endpoint the server answers, from its routers: `GET /api/wumpus/{id}`. */
function serverEndpoints(): string[] {
  const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(48), LOG_LEVEL: 'silent' })
  const deps = createRouteDeps({
    config,
    store,
    logger: createLogger('silent'),
    downloads,
    derivedMedia,
    verifyIdToken: async () => {
      throw new Error('unused')
    },
    revokeSignIns: async () => {},
  })
  return appRouters(deps).flatMap((router) =>
    router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${asDocumented(String(layer.path))}`)),
  )
}

/** Every page of the app, from the route tree the TanStack router plugin generates: `/wumpus/{id}`. */
function appPages(): string[] {
  const tree = repoFile('app/routeTree.gen.ts')
  const to = /export interface FileRoutesByTo \{([\s\S]*?)\n\}/.exec(tree)?.[1] ?? ''
  return [...to.matchAll(/^\s*'([^']+)':/gm)].map((match) => asDocumented(match[1]!))
}

/** The route ids the route files declare (`createFileRoute('/_authenticated/wumpus/$id')`). */
function routeIdsInFiles(dir = path.join(REPO_ROOT, 'app/routes')): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) return routeIdsInFiles(file)
    if (name.startsWith('-') || !/\.tsx?$/.test(name)) return []
    const source = repoFile(path.relative(REPO_ROOT, file))
    return [...source.matchAll(/createFileRoute\('([^']+)'\)/g)].map((match) => match[1]!)
  })
}

describe('the docs have a row', () => {
  it('for every endpoint of the server, and none for an endpoint that is gone (docs/rest-api.md)', () => {
    const endpoints = serverEndpoints()
    expect(endpoints.length).toBeGreaterThan(0)
    const rows = documentedRows(REST_TABLE, /^(GET|HEAD|POST|PUT|PATCH|DELETE) \//)
    expect(compare(endpoints, rows)).toEqual({ missingRows: [], staleRows: [], repeatedRows: [] })
  })

  it('for every page of the app, and none for a page that is gone (docs/pages.md)', () => {
    // The generated route tree is current: it has exactly the routes the files declare.
    const tree = repoFile('app/routeTree.gen.ts')
    const byId = /export interface FileRoutesById \{([\s\S]*?)\n\}/.exec(tree)?.[1] ?? ''
    const treeIds = [...byId.matchAll(/^\s*'([^']+)':/gm)].map((match) => match[1]!).filter((id) => id !== '__root__')
    expect(routeIdsInFiles().sort(), 'app/routeTree.gen.ts is stale: run `npm run build` (or `npm run dev`)').toEqual(treeIds.sort())

    const pages = appPages()
    expect(pages.length).toBeGreaterThan(0)
    expect(compare(pages, documentedRows(PAGES_TABLE, /^\//))).toEqual({ missingRows: [], staleRows: [], repeatedRows: [] })
  })
})

/** Source files that may link to the docs. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name.startsWith('.')) return []
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) return sourceFiles(file)
    return /\.(ts|tsx|mts|mjs|js)$/.test(name) ? [file] : []
  })
}

describe('links to the docs', () => {
  it('in code point at sections that exist', () => {
    const broken: string[] = []
    for (const root of ['app', 'backend', 'contract', 'e2e', 'scripts', 'bench']) {
      for (const file of sourceFiles(path.join(REPO_ROOT, root))) {
        const source = repoFile(path.relative(REPO_ROOT, file))
        for (const [link, doc, anchor] of source.matchAll(/\bdocs\/([\w.-]+\.md)(?:#([\w-]+))?/g)) {
          const target = path.join(REPO_ROOT, 'docs', doc!)
          if (!existsSync(target) || (anchor && !anchorsOf(repoFile(`docs/${doc}`)).has(anchor))) {
            broken.push(`${path.relative(REPO_ROOT, file)}: ${link}`)
          }
        }
      }
    }
    expect(broken).toEqual([])
  })

  it('in the README and the docs point at files and sections that exist', () => {
    const broken: string[] = []
    const pages = ['README.md', ...readdirSync(path.join(REPO_ROOT, 'docs')).map((name) => `docs/${name}`)].filter((name) =>
      name.endsWith('.md'),
    )
    for (const page of pages) {
      for (const [, target] of repoFile(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue
        const [file, anchor] = target!.split('#')
        const linked = file ? path.join(path.dirname(page), file) : page
        if (!existsSync(path.join(REPO_ROOT, linked))) broken.push(`${page}: ${target}`)
        else if (anchor && linked.endsWith('.md') && !anchorsOf(repoFile(linked)).has(anchor)) broken.push(`${page}: ${target}`)
      }
    }
    expect(broken).toEqual([])
  })
})
