import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { makeStickers, makeWumpus } from './fixtures'

/**
 * One msw server for all app tests; each test adds its handlers with server.use(...). The detail
 * page's chat app files are always asked for: unless a test says otherwise they are being made.
 */
export const server = setupServer(
  http.get('/api/wumpus/:id/stickers', () => HttpResponse.json(makeStickers(makeWumpus(0), { pending: true }))),
)
