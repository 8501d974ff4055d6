import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import Beasties from 'beasties'
import type { Middleware } from 'koa'
import { wumpusListPath } from '../../../contract/api-paths'
import { SSR_ANSWERS_ELEMENT_ID, type ApiAnswers, type RenderPage } from '../../../contract/ssr'
import type { Logger } from '../logger'
import { PageCache } from '../routes/page-cache'
import { galleryPages } from '../services/gallery-pages'
import type { Store } from '../store/port'
import { matchesEtag } from './etag'

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
    const firstPage = wumpusListPath()
    const [pathname, querystring = ''] = firstPage.split('?')
    const page = await galleryPages(store).page(pathname!, querystring, Object.fromEntries(new URLSearchParams(querystring)))
    return { [firstPage]: { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8', ...page.headers }, body: page.body.toString() } }
  },
  '/about': async () => ({}),
}

/**
 * Answers page navigations to `/` and `/about` with HTML that already holds the page (same React
 * components as the browser), its API answers for hydration, and the CSS the first paint needs inlined
 * (the full stylesheet loads without blocking). Pages are cached until the gallery changes, with ETags.
 * Without a server build (or if rendering fails) the static app shell is served as before.
 */
export function serverRenderedPages({ store, logger, staticDir, ssrDir }: ServerRenderedPagesOptions): Middleware {
  const entry = path.join(ssrDir, 'entry-server.js')
  const templateFile = path.join(staticDir, 'index.html')
  const cache = new PageCache(store, { maxEntries: 10, maxAgeMs: store.kind === 'embedded' ? Infinity : 2000 })
  const beasties = new Beasties({
    path: staticDir,
    publicPath: '/',
    // The full stylesheet moves to the end of the body: the page paints with the inlined part first.
    preload: 'body',
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
        return { renderPage: module.renderPage, template: readFileSync(templateFile, 'utf8') }
      } catch (error) {
        logger.error('the server-rendering build cannot be loaded: public pages are served as the app shell', { entry, error: String(error) })
        return null
      }
    })())

  return async (ctx, next) => {
    const answersFor = PAGES[ctx.path]
    if (!answersFor || (ctx.method !== 'GET' && ctx.method !== 'HEAD') || !ctx.accepts('html') || ctx.querystring) return next()
    const app = await load()
    if (!app) return next()

    let page = cache.get(ctx.path)
    if (!page) {
      const revision = store.wumpusRevision()
      try {
        const answers = await answersFor(store)
        const { html, title } = await app.renderPage({ url: ctx.path, answers })
        const document = await beasties.process(fillTemplate(app.template, { html, title, answers }))
        page = cache.set(ctx.path, revision, Buffer.from(document), {})
      } catch (error) {
        logger.error('server rendering failed: serving the app shell', { path: ctx.path, error: String(error) })
        return next()
      }
    }
    ctx.type = 'text/html; charset=utf-8'
    ctx.set('Cache-Control', 'no-cache')
    ctx.etag = page.etag
    if (matchesEtag(ctx.get('If-None-Match'), page.etag)) {
      ctx.status = 304
      return
    }
    ctx.body = ctx.method === 'HEAD' ? null : page.body
  }
}

/** The page: rendered markup in #root, the answers beside it (inert JSON, safe inside a script element), the title. */
function fillTemplate(template: string, { html, title, answers }: { html: string; title: string; answers: ApiAnswers }): string {
  const json = JSON.stringify(answers).replace(/</g, '\\u003c')
  const filled = template
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
    .replace(
      '<div id="root"></div>',
      `<div id="root">${html}</div><script type="application/json" id="${SSR_ANSWERS_ELEMENT_ID}">${json}</script>`,
    )
  if (!filled.includes(SSR_ANSWERS_ELEMENT_ID)) throw new Error('index.html has no empty <div id="root"></div>')
  return filled
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)
}
