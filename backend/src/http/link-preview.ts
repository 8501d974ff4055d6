/**
 * Link previews: what chat apps and social sites show for a shared link (Open Graph and Twitter card
 * tags, the page title and description), put into the app shell's <head>. Any public page can use it:
 * a sticker today, a pack later.
 */

export interface LinkPreview {
  /** The thing's own name ("Waving Wumpus"); the page <title> adds the site name. */
  title: string
  description: string
  /** Absolute URL of the page. */
  url: string
  /** Absolute URL of a PNG or JPEG (what every preview reader takes). */
  imageUrl?: string
  imageWidth?: number
  imageHeight?: number
  /** What the image shows, for people who cannot see it (default: title and description). */
  imageAlt?: string
  /** Open Graph type (default 'website'). */
  type?: 'website' | 'article'
  /** The page's <title> as it reads (default: "title · Wumpus Gallery"). */
  pageTitle?: string
}

export const SITE_NAME = 'Wumpus Gallery'
/** Longer descriptions are cut (at a word) with an ellipsis: previews show about this much. */
const DESCRIPTION_MAX = 200

/** The <meta> tags of a preview, every value HTML-escaped. */
export function linkPreview(preview: LinkPreview): string {
  const description = shorten(preview.description)
  const tags: Array<[attribute: 'name' | 'property', key: string, value: string | number | undefined]> = [
    ['name', 'description', description],
    ['property', 'og:site_name', SITE_NAME],
    ['property', 'og:type', preview.type ?? 'website'],
    ['property', 'og:title', preview.title],
    ['property', 'og:description', description],
    ['property', 'og:url', preview.url],
    ['property', 'og:image', preview.imageUrl],
    ['property', 'og:image:width', preview.imageUrl && preview.imageWidth],
    ['property', 'og:image:height', preview.imageUrl && preview.imageHeight],
    ['property', 'og:image:alt', preview.imageUrl && (preview.imageAlt ?? shorten(`${preview.title}: ${preview.description}`))],
    ['name', 'twitter:card', preview.imageUrl ? 'summary_large_image' : 'summary'],
    ['name', 'twitter:title', preview.title],
    ['name', 'twitter:description', description],
    ['name', 'twitter:image', preview.imageUrl],
  ]
  return tags
    .filter(([, , value]) => value !== undefined && value !== '' && value !== 0)
    .map(([attribute, key, value]) => `<meta ${attribute}="${key}" content="${escapeHtml(String(value))}" />`)
    .join('\n    ')
}

/**
 * The page with the preview: its <title> ("name · Wumpus Gallery") followed by the tags, the description
 * among them in place of the shell's. Undefined when the page has no <title> to put them by.
 */
export function withLinkPreview(html: string, preview: LinkPreview): string | undefined {
  if (!/<title>[^<]*<\/title>/.test(html)) return undefined
  const title = preview.pageTitle ?? `${preview.title} · ${SITE_NAME}`
  return html
    .replace(/\s*<meta\s+name="description"[^>]*>/, '')
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>\n    ${linkPreview(preview)}`)
}

/** Text as it reads from HTML text or an attribute value made by escapeHtml (or a build tool). */
export function unescapeHtml(html: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" }
  return html.replace(/&(amp|lt|gt|quot|apos|#39);/g, (_whole, name: string) => named[name]!)
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= DESCRIPTION_MAX) return flat
  const cut = flat.slice(0, DESCRIPTION_MAX - 1)
  return `${cut.slice(0, cut.lastIndexOf(' ') > DESCRIPTION_MAX / 2 ? cut.lastIndexOf(' ') : cut.length)}…`
}
