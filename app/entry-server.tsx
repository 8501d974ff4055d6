// Server rendering of the public pages (built by `vite build --ssr`, loaded by the backend at run time):
// the same components as the browser, with API answers the server already has, so the first paint
// needs no JavaScript and the browser hydrates from the same answers without asking again.
import { createMemoryHistory } from '@tanstack/react-router'
import { renderToString } from 'react-dom/server'
import type { RenderPage, SsrPage, SsrRequest } from '../contract/ssr'
import { App } from './app'
import { primeApiAnswers } from './lib/api-client'
import { APP_NAME, PageTitleSink } from './lib/page-title'
import { createQueryClient } from './lib/query-client'
import { createSessionStore } from './lib/session'
import { createAppRouter } from './router'

// The primed answers are module state, so renders take turns (each takes a few milliseconds).
let previous: Promise<unknown> = Promise.resolve()

export const renderPage: RenderPage = (request) => {
  const turn = previous.then(() => render(request))
  previous = turn.catch(() => {})
  return turn
}

async function render({ url, answers }: SsrRequest): Promise<SsrPage> {
  primeApiAnswers(answers)
  try {
    const queryClient = createQueryClient({ retry: false })
    // No storage on the server: every page is rendered for a signed-out visitor.
    const session = createSessionStore({ queryClient })
    const router = createAppRouter(queryClient, session, createMemoryHistory({ initialEntries: [url] }), { server: true })
    await router.load()
    // A URL the router tidies (its validateSearch cut or trimmed the search) renders nothing on the server: it
    // answers where to go, as TanStack's own request handler does (router-core/ssr/createRequestHandler).
    const result = router._serverResult
    if (result?.type === 'redirect') return { html: '', head: '', title: '', redirect: result.redirect.headers.get('Location') ?? '/' }
    const failed = router.state.matches.find((match) => match.status === 'error')
    if (failed) throw new Error(`${url} could not load on the server: ${String(failed.error)}`)
    const titleSink: { title?: string } = {}
    const html = renderToString(
      <PageTitleSink value={titleSink}>
        <App router={router} queryClient={queryClient} session={session} />
      </PageTitleSink>,
    )
    // React writes the resources the page asked to preload (react-dom's preload()) before the markup.
    const [, head = '', body = ''] = /^((?:<link [^>]*\/>)*)([\s\S]*)$/.exec(html) ?? []
    return { html: body, head, title: titleSink.title ?? APP_NAME, routeIds: router.state.matches.map((match) => match.routeId) }
  } finally {
    primeApiAnswers({})
  }
}
