import { http, HttpResponse } from 'msw'
import type { ProfileUpdate, User } from '../../contract/user'
import type { Wumpus } from '../../contract/wumpus'

const notFound = (message: string) => HttpResponse.json({ error: { code: 'NOT_FOUND', message } }, { status: 404 })

/** GET /api/profile/:email over the given users; 404 for anyone else. */
export function profileHandler(users: User[]) {
  const requests: string[] = []
  const handler = http.get('/api/profile/:email', ({ params }) => {
    const email = decodeURIComponent(String(params.email))
    requests.push(email)
    const found = users.find((user) => user.email === email)
    return found ? HttpResponse.json(found) : notFound('User not found')
  })
  return { handler, requests }
}

/** GET /api/wumpus?u_email= over the given items, paged like the real server (cursor = next index). */
export function userAnimationsHandler(items: Wumpus[], { pageSize = 24 } = {}) {
  const requests: URL[] = []
  const handler = http.get('/api/wumpus', ({ request }) => {
    const url = new URL(request.url)
    requests.push(url)
    const email = url.searchParams.get('u_email')
    const own = items.filter((item) => item.u_email === email)
    const start = Number(url.searchParams.get('cursor') ?? 0)
    const limit = Number(url.searchParams.get('limit') ?? pageSize)
    const page = own.slice(start, start + Math.min(limit, pageSize))
    const headers: Record<string, string> = { 'X-Total-Count': String(own.length) }
    const next = start + page.length
    if (next < own.length) {
      headers.Link = `</api/wumpus?u_email=${encodeURIComponent(email ?? '')}&limit=${limit}&cursor=${next}>; rel="next"`
    }
    return HttpResponse.json(page, { headers })
  })
  return { handler, requests }
}

/**
 * PUT /api/user/:email (profile update) applied to `user`; answers modifiedCount 0 when nothing
 * changed, like the real server, and a renewed token.
 */
export function updateProfileHandler(user: User, { token = 'renewed.session.token' } = {}) {
  const bodies: ProfileUpdate[] = []
  const handler = http.put('/api/user/:email', async ({ request, params }) => {
    if (decodeURIComponent(String(params.email)) !== user.email) {
      return HttpResponse.json({ error: { code: 'FORBIDDEN', message: 'Not your profile' } }, { status: 403 })
    }
    const body = (await request.json()) as ProfileUpdate
    bodies.push(body)
    const modifiedCount = Object.entries(body).some(([key, value]) => user[key as keyof User] !== value) ? 1 : 0
    Object.assign(user, body)
    return HttpResponse.json({ modifiedCount, user: { ...user }, token })
  })
  return { handler, bodies }
}
