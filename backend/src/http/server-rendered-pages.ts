import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import Beasties from 'beasties'
import type { Middleware } from 'koa'
import { tagListPath, wumpusListPath } from '../../../contract/api-paths'
import { HOME_TAG_CHIPS } from '../../../contract/limits'
import { SSR_ANSWERS_ELEMENT_ID, type ApiAnswers, type RenderPage, type SsrPage } from '../../../contract/ssr'
import type { Logger } from '../logger'
import { type CachedPage, PageCache } from './page-cache'
import { galleryPages } from '../services/gallery-pages'
import { tagLists } from '../services/tag-lists'
import type { Store } from '../store/port'
import { matchesEtag } from './etag'
import { scriptHashes, withScriptHashes } from './static-app'

export interface ServerRenderedPagesOptions {
  store: Store
  logger: Logger
  /** The built app (index.html is the page template; its CSS is read for the critical part). */
  staticDir: string
  /** Where `vite build --ssr` put entry-server.js. */
  ssrDir: string
}

/** The public pages rendered on the server, with the API reads each one makes while it loads. */
const PAGES: Record<string, (store: Store) => Promise<ApiAnswers>> = {
  '/': async (store) => {
    const list = wumpusListPath()
    const [listPath, listQuery = ''] = list.split('?')
    const tags = tagListPath(HOME_TAG_CHIPS)
    const [listPage, tagPage] = await Promise.all([
      galleryPages(store).page(listPath!, listQuery),
      tagLists(store).page(tags.split('?')[1]!),
    ])
    return { [list]: jsonAnswer(listPage), [tags]: jsonAnswer(tagPage) }
  },
  '/about': async () => ({}),
}

const jsonAnswer = (page: CachedPage) => ({
  status: 200,
  headers: { 'Content-Type': 'application/json; charset=utf-8', ...page.headers },
  body: page.body,
})

/**
 * Answers page navigations to `/` and `/about` with HTML that already holds the page (same React
 * components as the browser), its API answers for hydration, and the CSS the first paint needs inlined
 * (the full stylesheet loads without blocking). Pages are cached until the gallery changes, with ETags.
 * Without a server build (or if rendering fails) the static app shell is served as before.
 */
export function serverRenderedPages({ store, logger, staticDir, ssrDir }: ServerRenderedPagesOptions): Middleware {
  const entry = path.join(ssrDir, 'entry-server.js')
  const templateFile = path.join(staticDir, 'index.html')
  const cache = new PageCache(store, { maxEntries: 10, sharedMaxAgeMs: 2000 })
  const beasties = new Beasties({
    path: staticDir,
    publicPath: '/',
    // The full stylesheet stays in the head but as media="print" (not render-blocking) until a small inline
    // script turns it on; a <noscript> link keeps it without JavaScript. It must stay before the React
    // tree: Mantine's theme variables are a <style> element in the tree and must come after it to win.
    preload: 'media-script',
    inlineFonts: false,
    logLevel: 'silent',
    // Leave React's own style elements (Mantine's variables) where they are, or hydration would not match.
    reduceInlineStyles: false,
    mergeStylesheets: false,
  })
  let renderer: Promise<{ renderPage: RenderPage; template: string } | null> | undefined

  const load = () =>
    (renderer ??= (async () => {
      if (!existsSync(entry) || !existsSync(templateFile)) {
        logger.info('no server-rendering build: public pages are served as the app shell', { entry })
        return null
      }
      try {
        const module = (await import(pathToFileURL(entry).href)) as { renderPage: RenderPage }
        return { renderPage: module.renderPage, template: loadScriptsAfterFirstPaint(readFileSync(templateFile, 'utf8')) }
      } catch (error) {
        logger.error('the server-rendering build cannot be loaded: public pages are served as the app shell', {
          entry,
          error: String(error),
        })
        return null
      }
    })())

  /** Renders a page into the cache (null when there is no server build or rendering failed). */
  async function render(pathname: string): Promise<CachedPage | null> {
    const app = await load()
    if (!app) return null
    const revision = store.wumpuses.revision()
    try {
      const answers = await PAGES[pathname]!(store)
      const { html, head, title } = await app.renderPage({ url: pathname, answers })
      const document = await beasties.process(fillTemplate(app.template, { html, head, title, answers }))
      const page = cache.set(pathname, revision, document, {})
      // The page's inline scripts (beasties' stylesheet switch among them) are allowed by their hashes.
      scriptHashesOf.set(page, scriptHashes(document))
      return page
    } catch (error) {
      logger.error('server rendering failed: serving the app shell', { path: pathname, error: String(error) })
      return null
    }
  }
  const scriptHashesOf = new WeakMap<CachedPage, string[]>()

  // The first visitor should not wait for the module to load and the pages to render.
  void (async () => {
    for (const pathname of Object.keys(PAGES)) await render(pathname)
  })()

  return async (ctx, next) => {
    if (!PAGES[ctx.path] || (ctx.method !== 'GET' && ctx.method !== 'HEAD') || !ctx.accepts('html') || ctx.querystring) return next()
    const page = cache.get(ctx.path) ?? (await render(ctx.path))
    if (!page) return next()
    ctx.type = 'text/html; charset=utf-8'
    ctx.set('Cache-Control', 'no-cache')
    ctx.set('Content-Security-Policy', withScriptHashes(ctx.response.get('Content-Security-Policy'), scriptHashesOf.get(page) ?? []))
    ctx.etag = page.etag
    if (matchesEtag(ctx.get('If-None-Match'), page.etag)) {
      ctx.status = 304
      return
    }
    ctx.body = ctx.method === 'HEAD' ? null : page.body
  }
}

/**
 * The page: its preloads first in the head (before the scripts, so its largest image is asked for first),
 * rendered markup in #root, the answers beside it (inert JSON, safe inside a script element), the title.
 */
function fillTemplate(template: string, { html, head, title, answers }: SsrPage & { answers: ApiAnswers }): string {
  const json = JSON.stringify(answers).replace(/</g, '\\u003c')
  const filled = template
    .replace(/<meta charset="[^"]*" ?\/?>/i, (charset) => charset + head)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
    .replace(
      '<div id="root"></div>',
      `<div id="root">${html}</div><script type="application/json" id="${SSR_ANSWERS_ELEMENT_ID}">${json}</script>`,
    )
  if (!filled.includes(SSR_ANSWERS_ELEMENT_ID)) throw new Error('index.html has no empty <div id="root"></div>')
  return filled
}

const MODULE_SCRIPT = /<script type="module"(?: crossorigin)? src="([^"]+)"><\/script>\s*/g

/**
 * The page's module scripts start loading once it has painted (in order, as the template has them): on a
 * slow phone the markup, which already holds the page, and its first image get the bandwidth first, and
 * links work as plain links until the app has hydrated. Without JavaScript nothing changes.
 */
function loadScriptsAfterFirstPaint(template: string): string {
  const sources = [...template.matchAll(MODULE_SCRIPT)].map((match) => match[1]!)
  if (sources.length === 0) return template
  const load = `${JSON.stringify(sources)}.forEach(function(src){var s=document.createElement('script');s.type='module';s.crossOrigin='';s.async=false;s.src=src;document.head.appendChild(s)})`
  const loader = `<script>requestAnimationFrame(function(){setTimeout(function(){${load}})})</script>`
  return template.replace(MODULE_SCRIPT, '').replace('</body>', `${loader}</body>`)
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)
}
