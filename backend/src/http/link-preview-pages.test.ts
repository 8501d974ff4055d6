import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildGif } from '../../test/fixtures/gif'
import type { DerivedMedia, WumpusRecord } from '../store/port'
import { addRemix, addWumpus, startTestServer, type TestServer } from '../../test/support/test-server'

// The shell as the build makes it: a description, a title and the inline theme script the CSP allows by hash.
const THEME_SCRIPT = "document.documentElement.setAttribute('data-mantine-color-scheme', 'dark')"
const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta
      name="description"
      content="Animated mascot stickers (wumpus) to browse and download."
    />
    <title>Wumpus Gallery</title>
    <script>${THEME_SCRIPT}</script>
  </head>
  <body><div id="root"></div><script type="module" src="/assets/app.js"></script></body>
</html>`

let server: TestServer
let built: string
let plain: WumpusRecord
let derived: WumpusRecord

beforeAll(async () => {
  built = mkdtempSync(path.join(tmpdir(), 'wumpus-preview-build-'))
  mkdirSync(built, { recursive: true })
  writeFileSync(path.join(built, 'index.html'), TEMPLATE)
  server = await startTestServer({ STATIC_DIR: built })
  const gif = await server.store.files.put({ bytes: buildGif({ width: 4, height: 4 }), contentType: 'image/gif', filename: 'plain.gif' })
  plain = await addWumpus(server.store, { name: 'Plain Wumpus', description: 'Waves & smiles' })
  plain = (await server.store.wumpuses.update(plain._id, { files: { ...plain.files, gif: { id: gif.id, filename: gif.filename } } }))!
  derived = await addWumpus(server.store, {
    name: `Evil <script>alert("hi")</script> 'Wumpus'`,
    description: 'Says "hello" <b>loudly</b> & waves',
  })
  const webp = await sharp({ create: { width: 60, height: 40, channels: 4, background: { r: 200, g: 40, b: 90, alpha: 1 } } })
    .webp()
    .toBuffer()
  const still = await server.store.files.put({ bytes: new Uint8Array(webp), contentType: 'image/webp', filename: 'evil.still.webp' })
  const stillFile = {
    id: still.id,
    filename: still.filename,
    contentType: 'image/webp',
    bytes: still.size,
    width: 60,
    height: 40,
    frames: 1,
    durationMs: 0,
  }
  const media: DerivedMedia = {
    source: derived.files.lottie.id,
    version: 1,
    madeAt: new Date(),
    previews: { small: stillFile, large: stillFile, still: stillFile },
    exports: [],
  }
  derived = (await server.store.wumpuses.setDerived(derived._id, derived.files.lottie.id, media))!
})
afterAll(async () => {
  await server.close()
  rmSync(built, { recursive: true, force: true })
})

const page = (p: string, headers: Record<string, string> = { accept: 'text/html' }) => fetch(server.url + p, { headers })

/** The page's <meta> tags by name or property, their values unescaped as a reader of the page sees them. */
function metaOf(html: string): Record<string, string> {
  const tags: Record<string, string> = {}
  for (const [, key, value] of html.matchAll(/<meta (?:name|property)="([^"]+)" content="([^"]*)" \/>/g)) {
    tags[key!] = value!
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&')
  }
  return tags
}
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)![1]!

describe('link previews of sticker pages', () => {
  it('gives a sticker page its title, description, Open Graph and Twitter card tags with absolute URLs, every value escaped', async () => {
    const res = await page(`/wumpus/${derived._id}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const html = await res.text()
    expect(html).not.toContain('<script>alert')
    expect(html).not.toContain('<b>loudly')
    expect(titleOf(html)).toBe('Evil &lt;script&gt;alert(&quot;hi&quot;)&lt;/script&gt; &#39;Wumpus&#39; · Wumpus Gallery')
    // One description: the sticker's, in place of the shell's.
    expect(html.match(/name="description"/g)).toHaveLength(1)
    expect(metaOf(html)).toEqual({
      description: 'Says "hello" <b>loudly</b> & waves',
      'og:site_name': 'Wumpus Gallery',
      'og:type': 'website',
      'og:title': `Evil <script>alert("hi")</script> 'Wumpus'`,
      'og:description': 'Says "hello" <b>loudly</b> & waves',
      'og:url': `${server.url}/wumpus/${derived._id}`,
      'og:image': `${server.url}/api/wumpus/${derived._id}/still.png`,
      'og:image:width': '60',
      'og:image:height': '40',
      'og:image:alt': `Evil <script>alert("hi")</script> 'Wumpus': Says "hello" <b>loudly</b> & waves`,
      'twitter:card': 'summary_large_image',
      'twitter:title': `Evil <script>alert("hi")</script> 'Wumpus'`,
      'twitter:description': 'Says "hello" <b>loudly</b> & waves',
      'twitter:image': `${server.url}/api/wumpus/${derived._id}/still.png`,
    })
    // The shell's own script is untouched, so the CSP's hash of it still lets it run.
    expect(html).toContain(`<script>${THEME_SCRIPT}</script>`)
    const hash = createHash('sha256').update(THEME_SCRIPT).digest('base64')
    expect(res.headers.get('content-security-policy')).toContain(`'sha256-${hash}'`)
  })

  it('points og:image at a PNG of the stated size, made from the still', async () => {
    const html = await (await page(`/wumpus/${derived._id}`)).text()
    const res = await fetch(metaOf(html)['og:image']!)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    const png = Buffer.from(await res.arrayBuffer())
    expect(png.subarray(1, 4).toString()).toBe('PNG')
    const { format, width, height } = await sharp(png).metadata()
    expect({ format, width: String(width), height: String(height) }).toEqual({
      format: 'png',
      width: metaOf(html)['og:image:width'],
      height: metaOf(html)['og:image:height'],
    })
    // Revalidated by ETag: the same URL shows another still once the Lottie is replaced.
    expect(res.headers.get('cache-control')).toBe('no-cache')
    const again = await fetch(metaOf(html)['og:image']!, { headers: { 'if-none-match': res.headers.get('etag')! } })
    expect(again.status).toBe(304)
  })

  it('uses the GIF for the still until the server has made one, without a size it does not know', async () => {
    const html = await (await page(`/wumpus/${plain._id}`)).text()
    const meta = metaOf(html)
    expect(meta['og:title']).toBe('Plain Wumpus')
    expect(meta['og:image:width']).toBeUndefined()
    const res = await fetch(meta['og:image']!)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(await sharp(Buffer.from(await res.arrayBuffer())).metadata()).toMatchObject({ format: 'png', width: 4, height: 4 })
  })

  it('answers 404 in the error shape for the still of an unknown animation or of a picture that cannot be read', async () => {
    const unreadable = await addWumpus(server.store, { name: 'Placeholder Wumpus' })
    for (const id of [unreadable._id, 'abcdefabcdefabcdefabcdef', 'nope']) {
      const res = await fetch(`${server.url}/api/wumpus/${id}/still.png`)
      expect(res.status, id).toBe(404)
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND')
    }
  })

  it('answers bots asking for anything, and HEAD, with the tags; other reads go on to the API or files', async () => {
    for (const accept of ['*/*', 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8']) {
      expect(metaOf(await (await page(`/wumpus/${plain._id}`, { accept })).text())['og:title'], accept).toBe('Plain Wumpus')
    }
    const head = await fetch(`${server.url}/wumpus/${plain._id}`, { method: 'HEAD', headers: { accept: 'text/html' } })
    expect(head.status).toBe(200)
    expect(head.headers.get('etag')).toBeTruthy()
    expect((await page(`/wumpus/${plain._id}`, { accept: 'application/json' })).headers.get('content-type')).not.toContain('text/html')
  })

  it('gives an unknown or malformed id the shell with the site preview and 404 (the app says it is not found)', async () => {
    for (const id of ['abcdefabcdefabcdefabcdef', 'not-an-id', '%3Cscript%3E']) {
      const res = await page(`/wumpus/${id}`)
      expect(res.status, id).toBe(404)
      expect(res.headers.get('etag')).toBeNull()
      const html = await res.text()
      expect(titleOf(html)).toBe('Wumpus Gallery')
      expect(html).not.toContain('<script>"')
      expect(metaOf(html)).toMatchObject({
        description: 'Animated mascot stickers (wumpus) to browse and download.',
        'og:title': 'Wumpus Gallery',
        'og:image': `${server.url}/icons/icon-512.png`,
      })
      expect(html).toContain('<div id="root"></div>')
    }
  })

  it("answers an animation's remix editor and edit form, and a contributor's profile, 200; 404 when they show a visitor nothing", async () => {
    const hidden = await addRemix(server.store, 'hider@example.com', 'private', { name: 'Hidden Remix' })
    const found = [`/wumpus/${plain._id}/remix`, `/editWumpus/${plain._id}`]
    for (const pathname of found) {
      const res = await page(pathname)
      expect(res.status, pathname).toBe(200)
      expect(metaOf(await res.text())['og:title'], pathname).toBe('Plain Wumpus')
    }
    // A contributor (an animation published): by the address as the API reads it, in any case, written with %40 too.
    for (const pathname of ['/profile/maker@example.com', '/profile/Maker@Example.com', '/profile/maker%40example.com']) {
      const res = await page(pathname)
      expect(res.status, pathname).toBe(200)
      expect(metaOf(await res.text())['og:title'], pathname).toBe('Wumpus Gallery')
    }
    const missing = [
      '/wumpus/abcdefabcdefabcdefabcdef/remix',
      '/wumpus/not-an-id/remix',
      `/wumpus/${hidden._id}/remix`,
      '/editWumpus/abcdefabcdefabcdefabcdef',
      '/editWumpus/not-an-id',
      // No one with that address, a maker of remixes only (no public profile), not an address.
      '/profile/nobody@example.com',
      '/profile/hider@example.com',
      '/profile/not-an-address',
      '/profile/%E0%A4%A',
    ]
    for (const pathname of missing) {
      const res = await page(pathname)
      expect(res.status, pathname).toBe(404)
      const html = await res.text()
      expect(html).not.toContain('Hidden Remix')
      expect(metaOf(html)['og:image'], pathname).toBe(`${server.url}/icons/icon-512.png`)
      expect(html).toContain('<div id="root"></div>')
    }
  })

  it('is a no-cache document with an ETag that answers 304 until the sticker changes', async () => {
    const first = await page(`/wumpus/${plain._id}`)
    expect(first.headers.get('cache-control')).toBe('no-cache')
    const etag = first.headers.get('etag')!
    expect((await page(`/wumpus/${plain._id}`, { accept: 'text/html', 'if-none-match': etag })).status).toBe(304)
    await server.store.wumpuses.update(plain._id, { name: 'Renamed Wumpus' })
    const renamed = await page(`/wumpus/${plain._id}`, { accept: 'text/html', 'if-none-match': etag })
    expect(renamed.status).toBe(200)
    expect(titleOf(await renamed.text())).toBe('Renamed Wumpus · Wumpus Gallery')
    await server.store.wumpuses.update(plain._id, { name: 'Plain Wumpus' })
  })

  it("follows a remix's renames and sharing, which leave the gallery's caches alone", async () => {
    const remix = await addRemix(server.store, 'remixer@example.com', 'link', { name: 'Shared Remix' })
    expect(titleOf(await (await page(`/wumpus/${remix._id}`)).text())).toBe('Shared Remix · Wumpus Gallery')
    await server.store.wumpuses.update(remix._id, { name: 'Renamed Remix' })
    expect(titleOf(await (await page(`/wumpus/${remix._id}`)).text())).toBe('Renamed Remix · Wumpus Gallery')
    await server.store.wumpuses.update(remix._id, { remix: { ...remix.remix!, visibility: 'private' } })
    const html = await (await page(`/wumpus/${remix._id}`)).text()
    expect(html).not.toContain('Renamed Remix')
    expect(titleOf(html)).toBe('Wumpus Gallery')
  })

  it('gives a sticker an admin hid (an original or a shared remix) the site preview and 404, also after its page was kept; restored, its own again', async () => {
    const original = await addWumpus(server.store, { name: 'Hidden Original' })
    const remix = await addRemix(server.store, 'remixer@example.com', 'link', { name: 'Hidden Remix' })
    for (const [record, name] of [
      [original, 'Hidden Original'],
      [remix, 'Hidden Remix'],
    ] as const) {
      expect(titleOf(await (await page(`/wumpus/${record._id}`)).text())).toBe(`${name} · Wumpus Gallery`)
      await server.store.wumpuses.setHidden(record._id, { at: new Date(), by: 'admin@example.com' })
      const res = await page(`/wumpus/${record._id}`)
      expect(res.status).toBe(404)
      const html = await res.text()
      expect(html).not.toContain(name)
      expect(titleOf(html)).toBe('Wumpus Gallery')
      await server.store.wumpuses.setHidden(record._id, null)
      expect(titleOf(await (await page(`/wumpus/${record._id}`)).text())).toBe(`${name} · Wumpus Gallery`)
    }
  })
})

describe('link previews of sensitive stickers', () => {
  it("keep the sticker's name only: 'Sensitive sticker' and the site's icon, never its still or description; a pack with one for cover shows the icon", async () => {
    const spicy = await addWumpus(server.store, { name: 'Spicy Wumpus', description: 'Something explicit', sensitive: true })
    const res = await page(`/wumpus/${spicy._id}`)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(titleOf(html)).toBe('Spicy Wumpus · Wumpus Gallery')
    expect(html).not.toContain('Something explicit')
    expect(html).not.toContain('still.png')
    expect(metaOf(html)).toMatchObject({
      description: 'Sensitive sticker',
      'og:title': 'Spicy Wumpus',
      'og:description': 'Sensitive sticker',
      'og:image': `${server.url}/icons/icon-512.png`,
      'og:image:alt': 'Wumpus Gallery logo',
      'twitter:image': `${server.url}/icons/icon-512.png`,
    })
    const pack = await server.store.packs.insert({
      name: 'Mixed Pack',
      description: '',
      wumpusIds: [plain._id, spicy._id],
      coverWumpusId: spicy._id,
      createdBy: 'admin@example.com',
    })
    const packTags = metaOf(await (await page(`/packs/${pack.id}`)).text())
    expect(packTags['og:image']).toBe(`${server.url}/icons/icon-512.png`)
    // Marked not sensitive by an edit: its own preview again.
    await server.store.wumpuses.update(spicy._id, { sensitive: false })
    expect(metaOf(await (await page(`/wumpus/${spicy._id}`)).text())['og:image']).toBe(`${server.url}/api/wumpus/${spicy._id}/still.png`)
    expect(metaOf(await (await page(`/packs/${pack.id}`)).text())['og:image']).toBe(`${server.url}/api/wumpus/${spicy._id}/still.png`)
    await server.store.packs.delete(pack.id)
  })
})

describe('link previews of pack pages', () => {
  it("gives a pack page its name, description and its cover's still, and follows the pack's edits", async () => {
    const pack = await server.store.packs.insert({
      name: 'Cheerful <Pack>',
      description: '',
      wumpusIds: [plain._id, derived._id],
      coverWumpusId: derived._id,
      createdBy: 'admin@example.com',
    })
    const res = await page(`/packs/${pack.id}`)
    expect(res.headers.get('cache-control')).toBe('no-cache')
    const html = await res.text()
    expect(titleOf(html)).toBe('Cheerful &lt;Pack&gt; · Wumpus Gallery')
    expect(metaOf(html)).toMatchObject({
      'og:title': 'Cheerful <Pack>',
      'og:description': 'A sticker pack of 2 animated wumpus stickers',
      'og:url': `${server.url}/packs/${pack.id}`,
      'og:image': `${server.url}/api/wumpus/${derived._id}/still.png`,
      'og:image:width': '60',
      'og:image:height': '40',
    })

    const etag = res.headers.get('etag')!
    expect((await page(`/packs/${pack.id}`, { accept: 'text/html', 'if-none-match': etag })).status).toBe(304)
    await server.store.packs.update(pack.id, { name: 'Renamed Pack', coverWumpusId: plain._id })
    const renamed = await page(`/packs/${pack.id}`, { accept: 'text/html', 'if-none-match': etag })
    expect(renamed.status).toBe(200)
    const tags = metaOf(await renamed.text())
    expect(tags['og:title']).toBe('Renamed Pack')
    // The plain animation has no still yet: its GIF stands in, without a size the page does not know.
    expect(tags['og:image']).toBe(`${server.url}/api/wumpus/${plain._id}/still.png`)
    expect(tags['og:image:width']).toBeUndefined()
    await server.store.packs.delete(pack.id)
  })

  it('previews a pack shared by link, and gives a private pack the site preview, as if unknown', async () => {
    const personal = { description: 'Mine', wumpusIds: [derived._id], createdBy: 'owner@example.com' }
    const shared = await server.store.packs.insert({ ...personal, name: 'Shared Pack', visibility: 'link' })
    expect(metaOf(await (await page(`/packs/${shared.id}`)).text())).toMatchObject({
      'og:title': 'Shared Pack',
      'og:image': `${server.url}/api/wumpus/${derived._id}/still.png`,
    })
    const hidden = await server.store.packs.insert({ ...personal, name: 'Secret Pack', visibility: 'private' })
    const unknown = await (await page('/packs/0123456789abcdef01234567')).text()
    const hiddenPage = await page(`/packs/${hidden.id}`)
    // Answered like an unknown pack, 404, for visitors and bots; the app shows it to its owner all the same.
    expect(hiddenPage.status).toBe(404)
    const html = await hiddenPage.text()
    expect(html).not.toContain('Secret Pack')
    expect(html).not.toContain('Mine')
    expect(metaOf(html)).toEqual({ ...metaOf(unknown), 'og:url': `${server.url}/packs/${hidden.id}` })
    // Shared, then private again: the preview follows.
    await server.store.packs.update(shared.id, { visibility: 'private' })
    expect(await (await page(`/packs/${shared.id}`)).text()).not.toContain('Shared Pack')
  })

  it('gives an unknown pack the site preview and 404', async () => {
    const res = await page('/packs/0123456789abcdef01234567')
    expect(res.status).toBe(404)
    const html = await res.text()
    expect(metaOf(html)['og:image']).toBe(`${server.url}/icons/icon-512.png`)
  })
})

describe('link previews with PUBLIC_URL', () => {
  it('makes every absolute URL on the configured origin, whatever the request came to', async () => {
    const other = await startTestServer({ STATIC_DIR: built, PUBLIC_URL: 'https://stickers.example.com' })
    try {
      const record = await addWumpus(other.store, { name: 'Public Wumpus' })
      const html = await (await fetch(`${other.url}/wumpus/${record._id}`, { headers: { accept: 'text/html' } })).text()
      expect(metaOf(html)).toMatchObject({
        'og:url': `https://stickers.example.com/wumpus/${record._id}`,
        'og:image': `https://stickers.example.com/api/wumpus/${record._id}/still.png`,
      })
    } finally {
      await other.close()
    }
  })
})
