import { createRouter } from '@tanstack/react-router'
import { expect, it } from 'vitest'
import { APP_PAGES } from '../contract/app-pages'
import { routeTree } from './routeTree.gen'

it("lists the router's pages for the server, which answers any other path 404", () => {
  // The paths only: no page loads, so the context is never read.
  const router = createRouter({ routeTree, context: {} as never })
  const routerPages = Object.keys(router.routesByPath).map((page) => (page.length > 1 ? page.replace(/\/$/, '') : page))
  expect([...APP_PAGES].sort()).toEqual([...new Set(routerPages)].sort())
})
