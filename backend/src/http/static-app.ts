import { createHash } from 'node:crypto'
import { createReadStream, existsSync, readFileSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import path from 'node:path'
import type { Middleware } from 'koa'
import { isAppPage } from '../../../contract/app-pages'
import { matchesEtag } from './etag'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
}

/**
 * Serves the built PWA from `root`. Hashed files under /assets/ cache forever; everything else
 * (index.html, the service worker, the manifest) must be revalidated so a deploy shows at once.
 * Page navigations to the app's pages get index.html: the client router decides what they show; to any
 * other path, index.html with HTTP 404 (the app shows its not-found page).
 */
export function staticApp(root: string, options: { exclude: string[] }): Middleware {
  const resolvedRoot = path.resolve(root)
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || options.exclude.some((p) => ctx.path === p || ctx.path.startsWith(p + '/'))) {
      return next()
    }
    let file = safeJoin(resolvedRoot, ctx.path)
    let info = file ? await statFile(file) : undefined
    // Page paths may look like files (/profile/ana@studio.gallery); only hashed assets never fall back.
    const isNavigation = ctx.get('Accept').includes('text/html') && !ctx.path.startsWith('/assets/')
    let missingPage = false
    if (!info && isNavigation) {
      file = path.join(resolvedRoot, 'index.html')
      info = await statFile(file)
      missingPage = !isAppPage(ctx.path)
    }
    if (!info || !file) return next()
    if (missingPage) {
      // The shell, for the app to show its not-found page, but the answer a missing page deserves.
      ctx.status = 404
      ctx.type = 'text/html; charset=utf-8'
      ctx.set('Cache-Control', 'no-cache')
      ctx.body = ctx.method === 'HEAD' ? null : createReadStream(file)
      return
    }

    const ext = path.extname(file)
    ctx.type = TYPES[ext] ?? 'application/octet-stream'
    ctx.set('Cache-Control', ctx.path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache')
    ctx.length = info.size
    ctx.lastModified = info.mtime
    ctx.etag = `W/"${info.size.toString(16)}-${info.mtimeMs.toString(16)}"`
    if (matchesEtag(ctx.get('If-None-Match'), ctx.response.get('ETag'))) {
      ctx.status = 304
      return
    }
    ctx.body = ctx.method === 'HEAD' ? null : createReadStream(file)
  }
}

function safeJoin(root: string, urlPath: string): string | undefined {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return undefined
  }
  if (decoded.includes('\0')) return undefined
  const joined = path.join(root, path.normalize(decoded === '/' ? '/index.html' : decoded))
  return joined.startsWith(root + path.sep) ? joined : undefined
}

async function statFile(file: string) {
  try {
    const info = await stat(file)
    return info.isFile() ? info : undefined
  } catch {
    return undefined
  }
}

/** CSP hashes ('sha256-...') of the inline scripts in the built index.html, e.g. the theme pre-paint script. */
export function inlineScriptHashes(root: string): string[] {
  const index = path.join(root, 'index.html')
  return existsSync(index) ? scriptHashes(readFileSync(index, 'utf8')) : []
}

/** CSP hashes ('sha256-...') of the inline scripts in a page. */
export function scriptHashes(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>([\s\S]*?)<\/script>/g)].map(
    (match) => `sha256-${createHash('sha256').update(match[1]!).digest('base64')}`,
  )
}

/** A CSP that also allows these inline script hashes. */
export function withScriptHashes(csp: string, hashes: string[]): string {
  if (hashes.length === 0) return csp
  return csp.replace(/(^|; )script-src ([^;]*)/, (_whole, start: string, sources: string) => {
    const known = new Set(sources.split(' '))
    return `${start}script-src ${[sources, ...hashes.map((h) => `'${h}'`).filter((h) => !known.has(h))].join(' ')}`
  })
}
