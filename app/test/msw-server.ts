import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { emojiListHandler, tagListHandler } from './api-handlers'
import { makeStickers, makeWumpus, TINY_LOTTIE } from './fixtures'

/**
 * One msw server for all app tests; each test adds its handlers with server.use(...). These reads are
 * there from the start: the tags and emoji lists (empty), which the home page and the animation forms ask for
 * on the side, the detail page's chat app files, which unless a test says otherwise are being made, and the
 * Lottie files that stickers on screen play (a one-layer animation), and one's remixes (none), which My
 * animation lists beside one's uploads, and one's notifications (none), which the header's bell asks for, and the
 * run-time config with Telegram and Discord off, which a pack's page asks for (its Discord button).
 */
export const server = setupServer(
  tagListHandler([]).handler,
  emojiListHandler([]).handler,
  http.get('/api/wumpus/:id/stickers', () => HttpResponse.json(makeStickers(makeWumpus(0), { pending: true }))),
  http.get('/api/files/:id/:name.json', () => HttpResponse.json(TINY_LOTTIE)),
  http.get('/api/me/remixes', () => HttpResponse.json([], { headers: { 'X-Total-Count': '0' } })),
  http.get('/api/me/notifications', () => HttpResponse.json({ unread: 0, items: [] })),
  http.get('/api/config', () => HttpResponse.json({ firebase: { apiKey: 'k', authDomain: 'd', projectId: 'demo-wumpus' } })),
)
