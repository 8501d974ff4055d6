import { http, HttpResponse } from 'msw'
import type { MediaFormat } from '../../contract/limits'
import type { User } from '../../contract/user'
import type { Wumpus } from '../../contract/wumpus'
import { stickerEmojiListSchema } from '../../contract/emoji'
import type { CreateWumpusBody, UpdateWumpusBody, UploadedAnimationFile } from '../../contract/wumpus-write'

const EXTENSION: Record<MediaFormat, string> = { gif: 'gif', apng: 'png', lottie: 'json' }
const CONTENT_TYPE: Record<MediaFormat, string> = { gif: 'image/gif', apng: 'image/apng', lottie: 'application/json' }

let nextFileId = 1

/** A stored animation file as the server describes it after inspecting its bytes. */
export function makeUploadedFile(format: MediaFormat, overrides: Partial<UploadedAnimationFile> = {}): UploadedAnimationFile {
  const id = (nextFileId++).toString(16).padStart(24, 'f')
  const filename = `mascot.${EXTENSION[format]}`
  return {
    id,
    url: `/api/files/${id}/${filename}`,
    filename,
    info: {
      format,
      contentType: CONTENT_TYPE[format],
      width: 320,
      height: 320,
      frames: 60,
      durationMs: 2000,
      loop: 0,
      bytes: 49_459,
    },
    ...overrides,
  }
}

export const apiError = (status: number, code: string, message: string, details?: unknown) =>
  HttpResponse.json({ error: { code, message, ...(details === undefined ? {} : { details }) } }, { status })

type Answer = UploadedAnimationFile | Response

/** Resolves when the test calls release(): for requests that should stay in flight for a while. */
export function gate() {
  let release: () => void = () => {}
  const opened = new Promise<void>((resolve) => {
    release = resolve
  })
  return { opened, release }
}

/**
 * POST /api/uploads/animation?format= (the multipart body is not read: jsdom's FormData does not survive
 * Node's fetch intact). Answers a stored file per format, or what `answers` says for that format.
 */
export function animationUploadHandler(answers: Partial<Record<MediaFormat, Answer>> = {}, { wait }: { wait?: Promise<void> } = {}) {
  const formats: string[] = []
  const handler = http.post('/api/uploads/animation', async ({ request }) => {
    const format = new URL(request.url).searchParams.get('format') as MediaFormat
    formats.push(format)
    await wait
    const answer = answers[format] ?? makeUploadedFile(format)
    return answer instanceof Response ? answer : HttpResponse.json(answer, { status: 201 })
  })
  return { handler, formats }
}

/** POST /api/uploads/lottie-link: records the links and answers a stored Lottie (or `answer`). */
export function lottieLinkHandler(answer: Answer = makeUploadedFile('lottie')) {
  const links: string[] = []
  const handler = http.post('/api/uploads/lottie-link', async ({ request }) => {
    links.push(((await request.json()) as { url: string }).url)
    return answer instanceof Response ? answer : HttpResponse.json(answer, { status: 201 })
  })
  return { handler, links }
}

/** POST /api/renders: records the Lottie ids and answers a rendered GIF and APNG once `wait` resolves. */
export function renderHandler({ wait }: { wait?: Promise<void> } = {}) {
  const lotties: string[] = []
  const result = {
    gif: makeUploadedFile('gif', { filename: 'rendered.gif' }),
    apng: makeUploadedFile('apng', { filename: 'rendered.png' }),
  }
  const handler = http.post('/api/renders', async ({ request }) => {
    lotties.push(((await request.json()) as { lottie: string }).lottie)
    await wait
    return HttpResponse.json(result, { status: 201 })
  })
  return { handler, lotties, result }
}

/** GET of a stored Lottie's JSON, for the previews. */
export const lottieJsonHandler = http.get('/api/files/:id/:name', () =>
  HttpResponse.json({ v: '5.7.0', fr: 30, ip: 0, op: 60, w: 320, h: 320, layers: [] }),
)

/** POST /api/wumpuses: records the bodies and answers the new animation. */
export function createWumpusHandler({ id = 'e'.repeat(24), email = 'root@example.com' } = {}) {
  const bodies: CreateWumpusBody[] = []
  const handler = http.post('/api/wumpuses', async ({ request }) => {
    const body = (await request.json()) as CreateWumpusBody
    bodies.push(body)
    const wumpus: Wumpus = {
      _id: id,
      name: body.name,
      description: body.description,
      gif: `/api/files/${body.files.gif}/a.gif`,
      apng: `/api/files/${body.files.apng}/a.png`,
      lottie: `/api/files/${body.files.lottie}/a.json`,
      u_email: email,
      u_name: 'Root',
      tags: body.tags ?? [],
      emoji: stickerEmojiListSchema.parse(body.emoji ?? []),
      keywords: body.keywords ?? [],
      licence: body.licence ?? 'gallery-only',
      credit: body.credit ?? '',
      sensitive: body.sensitive ?? false,
      downloads: 0,
      createdAt: new Date().toISOString(),
    }
    return HttpResponse.json(wumpus, { status: 201 })
  })
  return { handler, bodies }
}

/** PUT /api/wumpuses/:id applied to `wumpus` (or `answer`, e.g. a 403). */
export function updateWumpusHandler(wumpus: Wumpus, { answer }: { answer?: Response } = {}) {
  const bodies: UpdateWumpusBody[] = []
  const handler = http.put('/api/wumpuses/:id', async ({ request }) => {
    const body = (await request.json()) as UpdateWumpusBody
    bodies.push(body)
    if (answer) return answer
    // The answer carries the emoji with their names, as the server's.
    const { files, ...text } = { ...body, ...(body.emoji ? { emoji: stickerEmojiListSchema.parse(body.emoji) } : {}) }
    return HttpResponse.json({ ...wumpus, ...text, ...(files?.gif ? { gif: `/api/files/${files.gif}/a.gif` } : {}) })
  })
  return { handler, bodies }
}

/** DELETE /api/wumpus/:id removing from `items` (so a refetch no longer lists it). */
export function deleteWumpusHandler(items: Wumpus[]) {
  const deleted: string[] = []
  const handler = http.delete('/api/wumpus/:id', ({ params }) => {
    const index = items.findIndex((item) => item._id === params.id)
    deleted.push(String(params.id))
    if (index >= 0) items.splice(index, 1)
    return HttpResponse.json({ deletedCount: index >= 0 ? 1 : 0 })
  })
  return { handler, deleted }
}

/** GET /api/users over `users`, counting the requests. */
export function usersHandler(users: User[]) {
  let requests = 0
  const handler = http.get('/api/users', () => {
    requests += 1
    return HttpResponse.json(users)
  })
  return { handler, requests: () => requests }
}

/** PUT /api/user/admin/:email promoting in `users`, or answering `answer` (e.g. a 403). */
/** DELETE /api/admin/{email}/sessions: `endedCount` sessions ended (or `answer`); records the emails. */
export function endSessionsHandler({ endedCount = 2, answer }: { endedCount?: number; answer?: Response } = {}) {
  const emails: string[] = []
  const handler = http.delete('/api/admin/:email/sessions', ({ params }) => {
    emails.push(decodeURIComponent(String(params.email)))
    return answer ?? HttpResponse.json({ endedCount })
  })
  return { handler, emails }
}

export function makeAdminHandler(users: User[], { answer }: { answer?: Response } = {}) {
  const emails: string[] = []
  const handler = http.put('/api/user/admin/:email', ({ params }) => {
    const email = decodeURIComponent(String(params.email))
    emails.push(email)
    if (answer) return answer
    const user = users.find((candidate) => candidate.email === email)
    if (!user) return apiError(404, 'NOT_FOUND', 'No such user')
    const modifiedCount = user.role === 'admin' ? 0 : 1
    user.role = 'admin'
    return HttpResponse.json({ modifiedCount })
  })
  return { handler, emails }
}
