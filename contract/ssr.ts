/**
 * How the server asks the built app to render a public page (app/entry-server.tsx implements it; the
 * backend loads the built module at run time, so neither imports the other). The server answers the
 * page's API reads in advance; the same answers travel in the page, so the browser hydrates from
 * them without asking again.
 */

/** An API answer as the server would send it over HTTP. */
export interface ApiAnswer {
  status: number
  headers: Record<string, string>
  /** The response body as text (JSON for the API). */
  body: string
}

/** API answers by request path and query, e.g. `/api/wumpuses?limit=24`. */
export type ApiAnswers = Record<string, ApiAnswer>

/** Some answer is personal (`Cache-Control: private`, a pack shared by link): no shared cache keeps the page. */
export function holdsPersonalAnswer(answers: ApiAnswers): boolean {
  return Object.values(answers).some((answer) => /\bprivate\b/.test(answer.headers['Cache-Control'] ?? ''))
}

export interface SsrRequest {
  /** Path and query of the page, e.g. `/` or `/about`. */
  url: string
  /** Every API read the page makes while loading; a read that is not here fails the render. */
  answers: ApiAnswers
}

export interface SsrPage {
  /** The markup that goes inside `<div id="root">`. */
  html: string
  /** Preload links for the page's first images (its largest paint): they go first in `<head>`, before the scripts. */
  head: string
  /** The document title the page sets once it runs. */
  title: string
  /** The ids of the routes the URL matched, outermost first (as the router names them, e.g. `/packs/`). */
  routeIds?: string[]
  /**
   * Where the app's router sends this URL instead (its search tidied: a long search cut, spaces trimmed): the
   * server answers a redirect there, as the page would have nothing to render for the URL asked.
   */
  redirect?: string
}

export type RenderPage = (request: SsrRequest) => Promise<SsrPage>

/** The id of the `<script type="application/json">` element carrying the page's `ApiAnswers`. */
export const SSR_ANSWERS_ELEMENT_ID = 'ssr-answers'

/**
 * The id of the `<script type="application/json">` element listing the scripts of the page's lazy route chunks,
 * which the page asks for together with its entry (from ROUTE_MODULES_FILE).
 */
export const SSR_MODULES_ELEMENT_ID = 'ssr-modules'

/** In the server-rendering build (written by scripts/build.mjs): route id → its lazy chunks' script URLs. */
export const ROUTE_MODULES_FILE = 'route-modules.json'
