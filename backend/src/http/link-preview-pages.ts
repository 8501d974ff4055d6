import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import type { Context, Middleware } from 'koa'
import { wumpusStillPath } from '../../../contract/api-paths'
import { idSchema } from '../../../contract/wumpus'
import { PageCache, type CachedPage } from './page-cache'
import { canSee } from '../domain/visibility'
import { isContributor } from '../services/makers'
import { stillSource } from '../services/still-pictures'
import type { PackRecord, Store, WumpusRecord } from '../store/port'
import { matchesEtag } from './etag'
import { emailParam } from './params'
import { SITE_NAME, unescapeHtml, withLinkPreview, type LinkPreview } from './link-preview'

export interface LinkPreviewPagesOptions {
  store: Store
  /** The built app; its index.html is the page. */
  staticDir: string
  /** The public origin for absolute URLs; unset: the request's own. */
  publicUrl?: string
}

/**
 * A page about one thing (an animation, a pack, a person): its path, and the preview of what it shows ('site': the
 * site's own; undefined: it shows a visitor nothing, answered 404).
 */
interface PreviewPage {
  pattern: RegExp
  preview: (store: Store, params: string[], origin: string) => Promise<LinkPreview | 'site' | undefined>
  /** What else the cached page depends on besides the gallery (a pack's own edits). */
  version?: (store: Store, params: string[]) => Promise<string>
}

const PAGES: PreviewPage[] = [
  { pattern: /^\/wumpus\/([^/]+)$/, preview: wumpusPreview, version: remixVersion },
  // Its remix editor and its edit form show the animation too, or that it is not found.
  { pattern: /^\/wumpus\/([^/]+)\/remix$/, preview: wumpusPreview, version: remixVersion },
  { pattern: /^\/editWumpus\/([^/]+)$/, preview: wumpusPreview, version: remixVersion },
  { pattern: /^\/packs\/([^/]+)$/, preview: packPreview, version: packVersion },
  { pattern: /^\/profile\/([^/]+)$/, preview: profilePreview },
]

/** What a preview says of a sensitive sticker in place of its description, and shows in place of its still. */
export const SENSITIVE_PREVIEW_DESCRIPTION = 'Sensitive sticker'

/** The site's icon, the image of previews with none of their own to show. */
function siteImage(origin: string): Pick<LinkPreview, 'imageUrl' | 'imageWidth' | 'imageHeight' | 'imageAlt'> {
  return { imageUrl: `${origin}/icons/icon-512.png`, imageWidth: 512, imageHeight: 512, imageAlt: `${SITE_NAME} logo` }
}

/**
 * A sticker's name, description and still PNG. A sensitive one (it opens by link for anyone) keeps its name
 * only: "Sensitive sticker" and the site's icon, so a chat that unfurls the link shows nothing of it.
 */
async function wumpusPreview(store: Store, [rawId]: string[], origin: string): Promise<LinkPreview | undefined> {
  const id = idSchema.safeParse(rawId)
  const record = id.success ? await store.wumpuses.get(id.data) : undefined
  // Previews are fetched signed out: a private remix is as unknown.
  if (!record || !canSee(record, undefined)) return undefined
  if (record.sensitive) {
    return { title: record.name, description: SENSITIVE_PREVIEW_DESCRIPTION, url: `${origin}/wumpus/${record._id}`, ...siteImage(origin) }
  }
  const still = stillSource(record)
  return {
    title: record.name,
    description: record.description || `An animated sticker by ${record.u_name}`,
    url: `${origin}/wumpus/${record._id}`,
    imageUrl: origin + wumpusStillPath(record._id),
    imageWidth: still.width,
    imageHeight: still.height,
  }
}

/** A pack anyone may open: public, or shared by link. A private one is as unknown (previews are fetched signed out). */
async function openPack(store: Store, rawId: string | undefined): Promise<PackRecord | undefined> {
  const pack = idSchema.safeParse(rawId).success ? await store.packs.get(rawId!) : undefined
  return pack?.visibility === 'private' ? undefined : pack
}

/**
 * A pack's name, description and its cover's still PNG (server-rendered pack pages carry it too); a sensitive
 * cover is not shown (the site's icon instead).
 */
export async function packPreview(store: Store, [rawId]: string[], origin: string): Promise<LinkPreview | undefined> {
  const pack = await openPack(store, rawId)
  if (!pack) return undefined
  const found = pack.coverWumpusId ? await store.wumpuses.get(pack.coverWumpusId) : undefined
  const cover = found && canSee(found, undefined) && !found.sensitive ? found : undefined
  const still = cover ? stillSource(cover) : undefined
  const text = {
    title: pack.name,
    description: pack.description || `A sticker pack of ${pack.wumpusIds.length} animated wumpus stickers`,
    url: `${origin}/packs/${pack.id}`,
  }
  if (!cover) return { ...text, ...siteImage(origin) }
  return { ...text, imageUrl: origin + wumpusStillPath(cover._id), imageWidth: still?.width, imageHeight: still?.height }
}

/**
 * A contributor's profile is public (someone with a published animation: the API shows it to anyone signed in), with
 * the site's preview; anyone else's is as unknown, 404, so the answer does not tell who has an account.
 */
async function profilePreview(store: Store, [rawEmail]: string[]): Promise<'site' | undefined> {
  let email: string
  try {
    // Read as the API reads it (GET /api/profile/{email}).
    email = emailParam({ params: { email: decodeURIComponent(rawEmail!) } })
  } catch {
    return undefined
  }
  return (await isContributor(store, email)) ? 'site' : undefined
}

async function packVersion(store: Store, [rawId]: string[]): Promise<string> {
  const pack = await openPack(store, rawId)
  if (!pack) return 'none'
  const cover = pack.coverWumpusId ? await store.wumpuses.get(pack.coverWumpusId) : undefined
  return `${pack.updatedAt.toISOString()} ${cover ? recordVersion(cover) : ''}`
}

/** A remix's writes do not move the store's revision (it is in no list): its page follows the record itself. */
async function remixVersion(store: Store, [rawId]: string[]): Promise<string> {
  const id = idSchema.safeParse(rawId)
  const record = id.success ? await store.wumpuses.get(id.data) : undefined
  return record ? recordVersion(record) : 'none'
}

/** What a remix's preview shows changes with it (an original's moves the store's revision). */
function recordVersion(record: WumpusRecord): string {
  if (!record.remix) return ''
  return JSON.stringify([
    record.remix.visibility,
    record.hidden?.at ?? null,
    record.name,
    record.description,
    record.updatedAt,
    record.derived?.madeAt ?? null,
  ])
}

/**
 * Answers page navigations (and bots asking for HTML or anything) to pages about one thing with the
 * app shell holding that page's title, description, Open Graph and Twitter card tags; what it shows is
 * unknown or not open to visitors: the shell with the site's own preview and HTTP 404 (the app then says it
 * is not found, or shows a private one or one's own profile to its owner, whom the server cannot tell from a
 * document request). Pages are cached
 * until the gallery changes, per origin, with ETags and `no-cache` like every document.
 */
export function linkPreviewPages({ store, staticDir, publicUrl }: LinkPreviewPagesOptions): Middleware {
  const templateFile = path.join(staticDir, 'index.html')
  const cache = new PageCache(store, { maxEntries: 500, sharedMaxAgeMs: 2000 })
  let template: { html: string; mtimeMs: number } | undefined
  /** Pages that show a signed-out visitor nothing (unknown, malformed or private): answered 404. */
  const notFound = new WeakSet<CachedPage>()

  /** The built index.html, read again when a deploy replaced it. */
  async function currentTemplate(): Promise<{ html: string; mtimeMs: number } | undefined> {
    const info = await stat(templateFile).catch(() => undefined)
    if (!info) return undefined
    if (template?.mtimeMs !== info.mtimeMs) template = { html: await readFile(templateFile, 'utf8'), mtimeMs: info.mtimeMs }
    return template
  }

  /** The page, or undefined when the shell has no <title> to put the tags by (then it is served as it is). */
  async function render(ctx: Context, page: PreviewPage, params: string[], shell: { html: string; mtimeMs: number }) {
    // (Behind a trusted proxy, protocol and host are the forwarded ones.)
    const origin = publicUrl ?? `${ctx.protocol}://${ctx.host}`
    const version = page.version ? await page.version(store, params) : ''
    const key = `${shell.mtimeMs} ${origin}${ctx.path} ${version}`
    const cached = cache.get(key)
    if (cached) return cached
    const revision = cache.revision()
    const own = await page.preview(store, params, origin)
    const html = withLinkPreview(shell.html, own === undefined || own === 'site' ? sitePreview(shell.html, origin, ctx.path) : own)
    if (html === undefined) return undefined
    const rendered = cache.set(key, revision, html, {})
    if (own === undefined) notFound.add(rendered)
    return rendered
  }

  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !ctx.accepts('html')) return next()
    const page = PAGES.find((candidate) => candidate.pattern.test(ctx.path))
    if (!page) return next()
    const shell = await currentTemplate()
    if (!shell) return next()
    const params = page.pattern.exec(ctx.path)!.slice(1)
    const rendered = await render(ctx, page, params, shell)
    if (!rendered) return next()
    ctx.type = 'text/html; charset=utf-8'
    ctx.set('Cache-Control', 'no-cache')
    if (notFound.has(rendered)) {
      // The app, signed in, may still show it (a private remix to its owner): the shell, with 404.
      ctx.status = 404
      ctx.body = rendered.body
      return
    }
    ctx.etag = rendered.etag
    if (matchesEtag(ctx.get('If-None-Match'), rendered.etag)) {
      ctx.status = 304
      return
    }
    // Koa leaves the body out of a HEAD answer itself, keeping its length.
    ctx.body = rendered.body
  }
}

/**
 * The site's own preview, for pages with nothing of their own to show: the shell's title and description
 * kept as they are, the app icon as the image.
 */
function sitePreview(shell: string, origin: string, pathname: string): LinkPreview {
  const pageTitle = unescapeHtml(/<title>([^<]*)<\/title>/.exec(shell)?.[1] ?? SITE_NAME)
  const description = unescapeHtml(/<meta\s+name="description"\s+content="([^"]*)"/.exec(shell)?.[1] ?? '')
  return {
    title: SITE_NAME,
    pageTitle,
    description,
    url: origin + pathname,
    imageUrl: `${origin}/icons/icon-512.png`,
    imageWidth: 512,
    imageHeight: 512,
    imageAlt: `${SITE_NAME} logo`,
  }
}
