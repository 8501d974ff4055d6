import { setupServer } from 'msw/node'

/** One msw server for all app tests; each test adds its handlers with server.use(...). */
export const server = setupServer()
