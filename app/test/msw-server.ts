import { setupServer } from 'msw/node'
import { tagListHandler } from './api-handlers'

/**
 * One msw server for all app tests; each test adds its handlers with server.use(...). The tags list is
 * there from the start (empty): the home page and the animation forms ask for it on the side.
 */
export const server = setupServer(tagListHandler([]).handler)
