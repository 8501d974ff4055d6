import { render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryHistory } from '@tanstack/react-router'
import { App } from '../app'
import { createQueryClient } from '../lib/query-client'
import { createAppRouter } from '../router'

/** Renders the whole app (providers, layout, routes) at the given path. */
export function renderApp(path = '/') {
  const queryClient = createQueryClient({ retry: false })
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [path] }))
  const user = userEvent.setup()
  const view = render(<App router={router} queryClient={queryClient} env="test" />)
  return { ...view, router, queryClient, user }
}
