import { http, HttpResponse } from 'msw'
import { makeUser } from './profile-fixtures'
import { makeSessionToken } from './session'

export interface RecordedRequest {
  method: string
  url: URL
  authorization: string | null
  body: unknown
}

/**
 * The account endpoints as the server answers them. PUT /api/user/{email} with a Firebase ID token
 * (`firebase-id-token:...`, see firebase-fake) signs in; with a session token it updates the profile.
 */
export function accountHandlers({ emailVerified = false, admin = false } = {}) {
  const requests: RecordedRequest[] = []
  const record = async (request: Request, body?: unknown) => {
    requests.push({
      method: request.method,
      url: new URL(request.url),
      authorization: request.headers.get('Authorization'),
      body: body !== undefined ? body : request.headers.get('Content-Type')?.includes('json') ? await request.clone().json() : undefined,
    })
  }
  const handlers = [
    http.put('/api/user/:email', async ({ request, params }) => {
      await record(request)
      const email = String(params.email)
      const body = requests.at(-1)!.body as Record<string, string>
      const authorization = request.headers.get('Authorization') ?? ''
      if (authorization.startsWith('Bearer firebase-id-token:')) {
        const user = makeUser({ email, user_name: body.user_name ?? '', photo: body.photo ?? '' })
        const token = makeSessionToken({ email, name: user.user_name, email_verified: emailVerified })
        return HttpResponse.json({ token, user })
      }
      const user = makeUser({ email, ...body })
      return HttpResponse.json({ modifiedCount: 1, user, token: makeSessionToken({ email, name: user.user_name }) })
    }),
    http.delete('/api/session', async ({ request }) => {
      await record(request)
      return new HttpResponse(null, { status: 204 })
    }),
    http.post('/api/uploads/image', async ({ request }) => {
      // The multipart body is not read: jsdom's FormData does not survive Node's fetch intact.
      await record(request, null)
      return HttpResponse.json({ url: '/api/files/0123456789abcdef01234567/photo.png' }, { status: 201 })
    }),
    http.get('/api/admin/:email', async ({ request }) => {
      await record(request)
      return HttpResponse.json({ admin })
    }),
  ]
  return { handlers, requests }
}
