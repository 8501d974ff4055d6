import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Context, Middleware } from 'koa'
import { emojiListPath, packListPath, packPath, tagListPath, wumpusListPath, type GalleryListFilter } from '../../../contract/api-paths'
import { GALLERY_SEARCH_KEYS, galleryFilterFromPageQuery } from '../../../contract/gallery-search'
import { HOME_EMOJI_CHIPS, HOME_TAG_CHIPS, ID_PATTERN } from '../../../contract/limits'
import {
  holdsPersonalAnswer,
  ROUTE_MODULES_FILE,
  SSR_ANSWERS_ELEMENT_ID,
  SSR_MODULES_ELEMENT_ID,
  type ApiAnswer,
  type ApiAnswers,
  type RenderPage,
  type SsrPage,
} from '../../../contract/ssr'
import type { Logger } from '../logger'
import { HttpError } from './http-error'
import { type CachedPage, PageCache, sortsByDownloads } from './page-cache'
import type { GalleryPages } from './gallery-pages'
import type { CountedLists } from './counted-lists'
import type { Store } from '../store/port'
import { matchesEtag } from './etag'
import type { RateLimits } from './rate-limit'
import { scriptHashes, withScriptHashes } from './static-app'
import { withLinkPreview, type LinkPreview } from './link-preview'
import { packPreview } from './link-preview-pages'

export interface ServerRenderedPagesOptions {
  store: Store
  logger: Logger
  /** The built app (index.html is the page template). */
  staticDir: string
  /** Where `vite build --ssr` put entry-server.js. */
  ssrDir: string
  /** A search in the page URL counts against the API's search limit. */
  limits: RateLimits
  /** The API's cached lists and the pack pages' reads, whose answers the pages hold. */
  lists: ListCaches
  /** The public origin for link previews' absolute URLs; unset: the request's own. */
  publicUrl?: string
}

/** The API reads a page is made of: the same caches and answers the API answers from. */
export interface ListCaches {
  gallery: GalleryPages
  tags: CountedLists
  emoji: CountedLists
  packs: PackAnswers
}

/** The pack pages' API reads as a signed-out visitor makes them (routes/packs.ts answers them). */
export interface PackAnswers {
  /** GET /api/packs (its first page). */
  list(): Promise<ApiAnswer>
  /** GET /api/packs/{id}; undefined when a visitor cannot open it (unknown, or private to its owner). */
  detail(id: string): Promise<ApiAnswer | undefined>
}

interface PageRequest {
  /** Which page (a key of PAGES). */
  page: string
  /** The cache key: the page and what it searches or shows. */
  key: string
  /** Path and query as the browser has them (the app's router reads them, on the server as in the browser). */
  url: string
  search: GalleryListFilter
  /** The pack a pack's page shows. */
  id?: string
}

interface PublicPage {
  /** The API reads the page makes while it loads; undefined: nothing a visitor may see (the app shell is served). */
  answers: (lists: ListCaches, request: PageRequest) => Promise<ApiAnswers | undefined>
  /**
   * The page follows answers that change without the gallery's revision moving (pack edits): they are read
   * for every request and the page is kept by what they hold, so a page never shows an older pack.
   */
  keyedByAnswers?: boolean
  /** Its link preview (what chat apps show for a shared link), for the page's origin. */
  preview?: (store: Store, request: PageRequest, origin: string) => Promise<LinkPreview | undefined>
}

/** The public pages rendered on the server, with the API reads each one makes while it loads. */
const PAGES: Record<string, PublicPage> = {
  '/': {
    answers: async (lists, { search }) => {
      const list = wumpusListPath(search)
      const [listPath, listQuery = ''] = list.split('?')
      const tags = tagListPath(HOME_TAG_CHIPS)
      const emoji = emojiListPath(HOME_EMOJI_CHIPS)
      const [listPage, tagPage, emojiPage] = await Promise.all([
        lists.gallery.page(listPath!, listQuery),
        lists.tags.page(tags.split('?')[1]!),
        lists.emoji.page(emoji.split('?')[1]!),
      ])
      return { [list]: jsonAnswer(listPage), [tags]: jsonAnswer(tagPage), [emoji]: jsonAnswer(emojiPage) }
    },
  },
  '/about': { answers: async () => ({}) },
  '/packs': {
    answers: async (lists) => ({ [packListPath()]: await lists.packs.list() }),
    keyedByAnswers: true,
  },
  '/packs/$id': {
    answers: async (lists, { id }) => {
      const pack = await lists.packs.detail(id!)
      return pack && { [packPath(id!)]: pack }
    },
    keyedByAnswers: true,
    preview: (store, { id }, origin) => packPreview(store, [id!], origin),
  },
}

const PACK_PAGE = /^\/packs\/([^/]+)$/

/**
 * The rendered page for a request, or undefined for the app shell. The home page is rendered for a gallery
 * search in its URL too (/?q=moon: its search form sends that without JavaScript); other query strings get the shell.
 */
function pageRequest(pathname: string, querystring: string): PageRequest | undefined {
  const id = PACK_PAGE.exec(pathname)?.[1]
  if (id !== undefined) {
    // A malformed id is the app's not-found page, rendered in the browser (answered 404 by the link previews).
    return ID_PATTERN.test(id) && !querystring ? { page: '/packs/$id', key: pathname, url: pathname, search: {}, id } : undefined
  }
  if (!PAGES[pathname]) return undefined
  if (!querystring) return { page: pathname, key: pathname, url: pathname, search: {} }
  if (pathname !== '/' || [...new URLSearchParams(querystring).keys()].some((key) => !GALLERY_SEARCH_KEYS.includes(key))) return undefined
  const search = galleryFilterFromPageQuery(querystring)
  const searched = Object.values(search).some((value) => value !== undefined)
  return { page: '/', key: searched ? `/?${wumpusListPath(search).split('?')[1]}` : '/', url: `/?${querystring}`, search }
}

const jsonAnswer = (page: CachedPage) => ({
  status: 200,
  headers: { 'Content-Type': 'application/json; charset=utf-8', ...page.headers },
  body: page.body,
})

const sha1 = (text: string) => createHash('sha1').update(text).digest('base64url')

/**
 * Answers page navigations to `/`, `/about`, `/packs` and a pack's page (public, or shared by link) with HTML that already holds the page (same React
 * components as the browser), its API answers for hydration, and a pack's link preview. The stylesheet
 * stays an ordinary one in the head: the first paint is the styled page, and the page is styled once (a
 * critical part inlined, then the whole stylesheet switched on after the first paint, restyled every element
 * again: on a slow phone a long task right after the first paint). Pages are cached until the gallery
 * changes (pack pages: while their answers are the same), with ETags.
 * Without a server build (or if rendering fails) the static app shell is served as before.
 */
export function serverRenderedPages({
  store,
  logger,
  staticDir,
  ssrDir,
  limits,
  lists,
  publicUrl,
}: ServerRenderedPagesOptions): Middleware {
  const entry = path.join(ssrDir, 'entry-server.js')
  const templateFile = path.join(staticDir, 'index.html')
  // Home page searches share it with the two pages: a burst of them may push those out (rendered again when asked).
  const cache = new PageCache(store, { maxEntries: 50, sharedMaxAgeMs: 2000, dependsOnDownloads: sortsByDownloads })
  let renderer: Promise<{ renderPage: RenderPage; template: string; scriptHashes: string[]; routeModules: RouteModules } | null> | undefined

  const load = () =>
    (renderer ??= (async () => {
      if (!existsSync(entry) || !existsSync(templateFile)) {
        logger.info('no server-rendering build: public pages are served as the app shell', { entry })
        return null
      }
      try {
        const module = (await import(pathToFileURL(entry).href)) as { renderPage: RenderPage }
        const template = loadScriptsAfterFirstPaint(readFileSync(templateFile, 'utf8'))
        // The inline scripts a page may run are the template's own (the module-script loader):
        // hashed from a page with nothing rendered in it, never from a rendered page, so a script that
        // rendered content ever carried would not run.
        const bare = fillTemplate(template, { html: '', head: '', title: '', answers: {}, modules: [] })
        return { renderPage: module.renderPage, template, scriptHashes: scriptHashes(bare), routeModules: readRouteModules(ssrDir) }
      } catch (error) {
        logger.error('the server-rendering build cannot be loaded: public pages are served as the app shell', {
          entry,
          error: String(error),
        })
        return null
      }
    })())

  /**
   * The page from the cache or rendered into it (null when there is no server build, rendering failed or the
   * page shows a visitor nothing), or where the app's router sends this URL (not cached: the URL it names is
   * rendered and cached when asked).
   */
  async function render(request: PageRequest, origin: string): Promise<CachedPage | { redirect: string } | null> {
    const app = await load()
    if (!app) return null
    const page = PAGES[request.page]!
    if (!page.keyedByAnswers) {
      const cached = cache.get(request.key)
      if (cached) return cached
    }
    const revision = cache.revision()
    try {
      const answers = await page.answers(lists, request)
      if (!answers) return null
      const preview = await page.preview?.(store, request, origin)
      const key = page.keyedByAnswers ? `${request.key} ${sha1(JSON.stringify([answers, preview ?? null]))}` : request.key
      const cached = page.keyedByAnswers && cache.get(key)
      if (cached) return cached
      const { html, head, title, redirect, routeIds = [] } = await app.renderPage({ url: request.url, answers })
      if (redirect !== undefined) return { redirect }
      const modules = [...new Set(routeIds.flatMap((id) => app.routeModules[id] ?? []))]
      const filled = fillTemplate(app.template, { html, head, title, answers, modules })
      const document = preview ? (withLinkPreview(filled, preview) ?? filled) : filled
      // A personal pack (shared by link) is kept by no shared cache, as its API answer is not.
      return cache.set(key, revision, document, { 'Cache-Control': holdsPersonalAnswer(answers) ? 'private, no-store' : 'no-cache' })
    } catch (error) {
      logger.error('server rendering failed: serving the app shell', { path: request.url, error: String(error) })
      return null
    }
  }

  /** Past the limit the page is the app shell, not an error: the app's own search then hears the 429. */
  async function withinSearchLimit(ctx: Context): Promise<boolean> {
    try {
      await limits.ip('search', ctx)
      return true
    } catch (error) {
      if (error instanceof HttpError && error.code === 'RATE_LIMITED') return false
      throw error
    }
  }

  // The first visitor should not wait for the module to load and the pages to render.
  void (async () => {
    for (const pathname of Object.keys(PAGES).filter((key) => !key.includes('$'))) await render(pageRequest(pathname, '')!, publicUrl ?? '')
  })()

  return async (ctx, next) => {
    const request = pageRequest(ctx.path, ctx.querystring)
    if (!request || (ctx.method !== 'GET' && ctx.method !== 'HEAD') || !ctx.accepts('html')) return next()
    if (request.search.q !== undefined && !(await withinSearchLimit(ctx))) return next()
    // (Behind a trusted proxy, protocol and host are the forwarded ones.)
    const page = await render(request, publicUrl ?? `${ctx.protocol}://${ctx.host}`)
    if (!page) return next()
    if ('redirect' in page) {
      // Only to a path of this site (the router answers one: its own tidied URL).
      if (!page.redirect.startsWith('/') || page.redirect.startsWith('//')) return next()
      ctx.set('Cache-Control', 'no-cache')
      ctx.redirect(page.redirect)
      return
    }
    ctx.type = 'text/html; charset=utf-8'
    ctx.set('Cache-Control', page.headers['Cache-Control'] ?? 'no-cache')
    // Only the template's own inline scripts (a page is only ever rendered from a loaded template).
    const allowed = (await load())?.scriptHashes ?? []
    ctx.set('Content-Security-Policy', withScriptHashes(ctx.response.get('Content-Security-Policy'), allowed))
    ctx.etag = page.etag
    if (matchesEtag(ctx.get('If-None-Match'), page.etag)) {
      ctx.status = 304
      return
    }
    ctx.body = ctx.method === 'HEAD' ? null : page.body
  }
}

/** Route id → the scripts of its lazy chunks (ROUTE_MODULES_FILE); none when the build has no such file. */
type RouteModules = Record<string, string[]>

function readRouteModules(ssrDir: string): RouteModules {
  const file = path.join(ssrDir, ROUTE_MODULES_FILE)
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RouteModules) : {}
}

/**
 * The page: its preloads first in the head (before the scripts, so its largest image is asked for first),
 * rendered markup in #root, the answers beside it (inert JSON, safe inside a script element), the scripts of
 * its route's lazy chunks (for the loader to ask for with the entry), the title.
 */
function fillTemplate(
  template: string,
  { html, head, title, answers, modules }: Omit<SsrPage, 'routeIds'> & { answers: ApiAnswers; modules: string[] },
): string {
  const json = JSON.stringify(answers).replace(/</g, '\\u003c')
  const moduleList =
    modules.length === 0 ? '' : `<script type="application/json" id="${SSR_MODULES_ELEMENT_ID}">${JSON.stringify(modules)}</script>`
  const filled = template
    .replace(/<meta charset="[^"]*" ?\/?>/i, (charset) => charset + head)
    // Replacer functions: in a replacement string, `$'`, `` $` `` and `$&` in an animation's text would be patterns.
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`)
    .replace(
      '<div id="root"></div>',
      () => `<div id="root">${html}</div><script type="application/json" id="${SSR_ANSWERS_ELEMENT_ID}">${json}</script>${moduleList}`,
    )
  if (!filled.includes(SSR_ANSWERS_ELEMENT_ID)) throw new Error('index.html has no empty <div id="root"></div>')
  return filled
}

/** Route chunks the loader asks for in one task (see loadScriptsAfterFirstPaint). */
const PRELOADS_PER_TASK = 6

const MODULE_SCRIPT = /<script type="module"(?: crossorigin)? src="([^"]+)"><\/script>\s*/g

/**
 * The page's module scripts start loading once it has painted (in order, as the template has them): on a
 * slow phone the markup, which already holds the page, and its first image get the bandwidth first, and
 * links work as plain links until the app has hydrated. Without JavaScript nothing changes. With them, as
 * modulepreloads, go the page's route chunks the server listed (SSR_MODULES_ELEMENT_ID): the entry would find
 * them only once it has run. Each request the page starts costs its main thread about a millisecond (more on a
 * slow phone, up to 2 on a busy machine), and a pack's page lists fifty-odd chunks: they are asked for a few
 * at a time, one task each, so no single task keeps a tap waiting. The loader is the same on every page, so
 * its hash in the CSP is too.
 */
function loadScriptsAfterFirstPaint(template: string): string {
  const sources = [...template.matchAll(MODULE_SCRIPT)].map((match) => match[1]!)
  if (sources.length === 0) return template
  const load =
    `${JSON.stringify(sources)}.forEach(function(src){var s=document.createElement('script');s.type='module';s.crossOrigin='';s.async=false;s.src=src;document.head.appendChild(s)});` +
    `var m=document.getElementById('${SSR_MODULES_ELEMENT_ID}'),q=m?JSON.parse(m.textContent):[];` +
    `(function next(){q.splice(0,${PRELOADS_PER_TASK}).forEach(function(href){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=href;document.head.appendChild(l)});if(q.length)setTimeout(next)})()`
  const loader = `<script>requestAnimationFrame(function(){setTimeout(function(){${load}})})</script>`
  return template.replace(MODULE_SCRIPT, '').replace('</body>', `${loader}</body>`)
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)
}
