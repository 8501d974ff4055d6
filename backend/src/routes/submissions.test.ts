import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ZipFile } from 'yazl'
import { activityListSchema } from '../../../contract/audit'
import {
  submissionCreatedSchema,
  submissionListSchema,
  submissionSchema,
  submissionFitSchema,
  submitterRecordSchema,
  type Submission,
} from '../../../contract/submissions'
import { wumpusListSchema, wumpusSchema } from '../../../contract/wumpus'
import { lottie, lottieBytes, utf8 } from '../../test/fixtures/lottie'
import { stillPng } from '../../test/fixtures/png'
import { errorBody, expectError } from '../../test/support/error-body'
import { addWumpus, startTestServer, type TestServer } from '../../test/support/test-server'

const ADMIN = 'reviewer@example.com'
const MAKER = 'maker@example.com'
const OTHER = 'other@example.com'
let server: TestServer
let admin: string
let maker: string
let other: string

beforeAll(async () => {
  // The waiting cap has its own test (limits, below).
  server = await startTestServer({ SUBMISSIONS_WAITING_MAX: '1000' })
  await server.store.users.upsert(ADMIN, { user_name: 'Reviewer', role: 'admin' })
  await server.store.users.upsert(MAKER, { user_name: 'Maker Person' })
  admin = await server.sessionToken(ADMIN)
  maker = await server.sessionToken(MAKER)
  other = await server.sessionToken(OTHER)
})
afterAll(() => server.close())

const FIELDS = {
  name: 'Waving Friend',
  description: 'A friendly wave for every chat',
  tags: 'happy,wave',
  emoji: '👋',
  keywords: 'hello,hi there',
  licence: 'CC-BY-4.0',
  credit: 'Maker Person',
  source: 'https://example.com/waving',
  original: 'true',
  sensitive: 'false',
}

/** A dotLottie: manifest.json naming its animation, stored as animations/<id>.json. */
async function dotLottie(animation: Uint8Array, options: { manifest?: boolean; folder?: string } = {}): Promise<Uint8Array> {
  const zip = new ZipFile()
  if (options.manifest !== false)
    zip.addBuffer(Buffer.from(JSON.stringify({ version: '1', animations: [{ id: 'wave' }] })), 'manifest.json')
  zip.addBuffer(Buffer.from(animation), `${options.folder ?? 'animations'}/wave.json`)
  zip.end()
  const chunks: Buffer[] = []
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer)
  return new Uint8Array(Buffer.concat(chunks))
}

function form(file: { bytes: Uint8Array; name: string } | undefined, fields: Record<string, string> = FIELDS): FormData {
  const data = new FormData()
  for (const [key, value] of Object.entries(fields)) data.append(key, value)
  if (file) data.append('file', new Blob([new Uint8Array(file.bytes)]), file.name)
  return data
}

async function submit(
  token: string,
  bytes: Uint8Array = lottieBytes(),
  name = 'wave.json',
  fields: Record<string, string> = FIELDS,
): Promise<string> {
  const res = await server.call('POST', '/api/submissions', token, form({ bytes, name }, fields))
  expect(res.status, await res.clone().text()).toBe(201)
  return submissionCreatedSchema.parse(await res.json()).id
}

async function mine(token: string): Promise<Submission[]> {
  const res = await server.call('GET', '/api/me/submissions?limit=100', token)
  expect(res.status).toBe(200)
  return submissionListSchema.parse(await res.json())
}

const find = async (token: string, id: string) => (await mine(token)).find((s) => s.id === id)
const decide = (id: string, body: unknown, token = admin) => server.call('POST', `/api/submissions/${id}/decision`, token, body)
/** A submission's file, as its submitter gets it. */
const fileText = async (url: string) => (await server.call('GET', url, maker)).text()

describe('POST /api/submissions', () => {
  it.each([
    ['a Lottie JSON', 'json', async () => lottieBytes()],
    ['a Telegram .tgs', 'tgs', async () => new Uint8Array(gzipSync(lottieBytes()))],
    ['a dotLottie', 'lottie', async () => dotLottie(lottieBytes())],
    ['a dotLottie 2 (a/ folder)', 'lottie', async () => dotLottie(lottieBytes(), { folder: 'a' })],
  ])('takes %s, judged by its bytes, and keeps its Lottie JSON with every field', async (_, extension, bytes) => {
    const id = await submit(maker, await bytes(), `wave.${extension}`)
    const submission = await find(maker, id)
    expect(submission).toMatchObject({
      id,
      state: 'waiting',
      name: 'Waving Friend',
      tags: ['happy', 'wave'],
      keywords: ['hello', 'hi there'],
      licence: 'CC-BY-4.0',
      credit: 'Maker Person',
      source: 'https://example.com/waving',
      original: true,
      sensitive: false,
      u_email: MAKER,
      u_name: 'Maker Person',
    })
    expect(submission!.emoji.map((e) => e.char)).toEqual(['👋'])
    expect(submission!.lottie).toMatch(/^\/api\/files\/[0-9a-f]{24}\/wave\.json$/)
    expect(JSON.parse(await fileText(submission!.lottie!))).toEqual(lottie())
  })

  it.each([
    ['JSON that is not a Lottie', () => utf8('{"hello":"world"}'), 'wave.json', 'NOT_LOTTIE'],
    ['a broken ZIP named .lottie', () => Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5]), 'wave.lottie', 'BAD_STRUCTURE'],
    ['broken gzip named .tgs', () => Uint8Array.from([0x1f, 0x8b, 8, 0, 1, 2, 3]), 'wave.tgs', 'BAD_STRUCTURE'],
  ])('refuses %s with 400 in the error shape, saying why', async (_, bytes, name, mediaCode) => {
    const res = await server.call('POST', '/api/submissions', maker, form({ bytes: bytes(), name }))
    const error = await expectError(res, 400, 'BAD_REQUEST')
    expect(error.details).toMatchObject({ mediaCode })
  })

  it('refuses a PNG named .json as a wrong file type (415), as an admin’s Lottie upload is', async () => {
    const res = await server.call('POST', '/api/submissions', maker, form({ bytes: stillPng(), name: 'wave.json' }))
    expect((await expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE')).details).toMatchObject({ mediaCode: 'WRONG_FORMAT' })
  })

  it('refuses a dotLottie without a manifest, with 400', async () => {
    const res = await server.call(
      'POST',
      '/api/submissions',
      maker,
      form({ bytes: await dotLottie(lottieBytes(), { manifest: false }), name: 'w.lottie' }),
    )
    expect((await expectError(res, 400, 'BAD_REQUEST')).details).toMatchObject({ mediaCode: 'BAD_STRUCTURE' })
  })

  it('refuses a file above the Lottie limit, and packages that unpack above it (zip and gzip bombs), with 413', async () => {
    const limit = server.config.limits.lottie
    const big = new Uint8Array(limit + 1000).fill(0x20)
    big.set(lottieBytes())
    await expectError(
      await server.call('POST', '/api/submissions', maker, form({ bytes: big, name: 'big.json' })),
      413,
      'PAYLOAD_TOO_LARGE',
    )
    // A Lottie padded with spaces to past the limit compresses to a few KB.
    const padded = new Uint8Array(limit * 3).fill(0x20)
    padded.set(lottieBytes())
    const bomb = await dotLottie(padded)
    expect(bomb.length).toBeLessThan(limit / 10)
    await expectError(
      await server.call('POST', '/api/submissions', maker, form({ bytes: bomb, name: 'bomb.lottie' })),
      413,
      'PAYLOAD_TOO_LARGE',
    )
    const tgsBomb = new Uint8Array(gzipSync(padded))
    await expectError(
      await server.call('POST', '/api/submissions', maker, form({ bytes: tgsBomb, name: 'bomb.tgs' })),
      413,
      'PAYLOAD_TOO_LARGE',
    )
  })

  it('refuses missing or bad fields with 400 naming them, and a missing file', async () => {
    const noLicence = { ...FIELDS, licence: 'WTFPL' }
    const bad = await expectError(
      await server.call('POST', '/api/submissions', maker, form({ bytes: lottieBytes(), name: 'w.json' }, noLicence)),
      400,
      'BAD_REQUEST',
    )
    expect(JSON.stringify(bad.details)).toContain('licence')
    const fourEmoji = { ...FIELDS, emoji: '👋🎉😀🔥' }
    await expectError(
      await server.call('POST', '/api/submissions', maker, form({ bytes: lottieBytes(), name: 'w.json' }, fourEmoji)),
      400,
      'BAD_REQUEST',
    )
    const badSource = { ...FIELDS, source: 'javascript:alert(1)' }
    await expectError(
      await server.call('POST', '/api/submissions', maker, form({ bytes: lottieBytes(), name: 'w.json' }, badSource)),
      400,
      'BAD_REQUEST',
    )
    const badFlag = { ...FIELDS, original: 'yes' }
    await expectError(
      await server.call('POST', '/api/submissions', maker, form({ bytes: lottieBytes(), name: 'w.json' }, badFlag)),
      400,
      'BAD_REQUEST',
    )
    await expectError(await server.call('POST', '/api/submissions', maker, form(undefined)), 400, 'BAD_REQUEST')
  })

  it('is for signed-in people with a verified email', async () => {
    await expectError(
      await server.call('POST', '/api/submissions', undefined, form({ bytes: lottieBytes(), name: 'w.json' })),
      401,
      'UNAUTHENTICATED',
    )
    const unverified = await server.sessionToken('new@example.com', { emailVerified: false })
    const res = await server.call('POST', '/api/submissions', unverified, form({ bytes: lottieBytes(), name: 'w.json' }))
    expect((await expectError(res, 403, 'FORBIDDEN')).details).toMatchObject({ reason: 'email-not-verified' })
  })
})

describe('the submitter’s own submissions', () => {
  it('lists only one’s own, newest first, paged with Link', async () => {
    const token = await server.sessionToken('lister@example.com')
    const ids = [await submit(token), await submit(token), await submit(token)]
    const first = await server.call('GET', '/api/me/submissions?limit=2', token)
    const page = submissionListSchema.parse(await first.json())
    expect(page.map((s) => s.id)).toEqual([ids[2], ids[1]])
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1]
    expect(next).toMatch(/^\/api\/me\/submissions\?limit=2&cursor=/)
    const second = submissionListSchema.parse(await (await server.call('GET', next!, token)).json())
    expect(second.map((s) => s.id)).toEqual([ids[0]])
    expect((await mine(other)).map((s) => s.id)).not.toContain(ids[0])
    await expectError(await server.call('GET', '/api/me/submissions?cursor=%24%24', token), 400, 'BAD_REQUEST')
    await expectError(await server.call('GET', '/api/me/submissions'), 401, 'UNAUTHENTICATED')
  })

  it('lets the submitter edit text and file while it waits, and nobody else (404)', async () => {
    const id = await submit(maker)
    const before = (await find(maker, id))!
    const edited = await server.call(
      'PUT',
      `/api/submissions/${id}`,
      maker,
      form(
        { bytes: new Uint8Array(gzipSync(lottieBytes({ fr: 60 }))), name: 'new.tgs' },
        { name: 'Waving Friend Two', licence: 'CC0-1.0' },
      ),
    )
    expect(edited.status, await edited.clone().text()).toBe(200)
    const after = submissionSchema.parse(await edited.json())
    expect(after).toMatchObject({ name: 'Waving Friend Two', licence: 'CC0-1.0', description: before.description, state: 'waiting' })
    expect(after.lottie).not.toBe(before.lottie)
    expect(JSON.parse(await fileText(after.lottie!))).toMatchObject({ fr: 60 })
    // The file it replaced is gone.
    expect((await server.call('GET', before.lottie!, maker)).status).toBe(404)

    await expectError(await server.call('PUT', `/api/submissions/${id}`, other, form(undefined, { name: 'Stolen Name' })), 404, 'NOT_FOUND')
    await expectError(await server.call('DELETE', `/api/submissions/${id}`, other), 404, 'NOT_FOUND')
    await expectError(await server.call('PUT', `/api/submissions/${id}`, maker, form(undefined, { name: 'x' })), 400, 'BAD_REQUEST')
    expect((await find(maker, id))!.name).toBe('Waving Friend Two')
  })

  it('shows its file to the submitter and admins only, kept by no shared cache; to anyone else it is unknown (404)', async () => {
    const id = await submit(maker)
    const { lottie: url } = (await find(maker, id))!
    for (const token of [maker, admin]) {
      const res = await server.call('GET', url!, token)
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('private, no-cache')
      expect(JSON.parse(await res.text())).toHaveProperty('layers')
    }
    await expectError(await server.call('GET', url!, other), 404, 'NOT_FOUND')
    await expectError(await server.call('GET', url!), 404, 'NOT_FOUND')
  })

  it('lets the submitter withdraw it while it waits: it and its file are gone', async () => {
    const id = await submit(maker)
    const { lottie: url } = (await find(maker, id))!
    expect((await server.call('DELETE', `/api/submissions/${id}`, maker)).status).toBe(204)
    expect(await find(maker, id)).toBeUndefined()
    expect((await server.call('GET', url!, maker)).status).toBe(404)
    await expectError(await server.call('DELETE', `/api/submissions/${id}`, maker), 404, 'NOT_FOUND')
  })
})

describe('review', () => {
  it('shows the queue to admins only, oldest first, paged with Link, filtered by state', async () => {
    await expectError(await server.call('GET', '/api/submissions', maker), 403, 'FORBIDDEN')
    await expectError(await server.call('GET', '/api/submissions'), 401, 'UNAUTHENTICATED')
    const first = await server.call('GET', '/api/submissions?state=waiting&limit=2', admin)
    expect(first.status).toBe(200)
    const page = submissionListSchema.parse(await first.json())
    expect(page.every((s) => s.state === 'waiting')).toBe(true)
    const all: Submission[] = [...page]
    let next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1]
    while (next) {
      const res = await server.call('GET', next, admin)
      all.push(...submissionListSchema.parse(await res.json()))
      next = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1]
    }
    const times = all.map((s) => s.createdAt)
    expect(times).toEqual([...times].sort())
    expect(new Set(all.map((s) => s.id)).size).toBe(all.length)
    await expectError(await server.call('GET', '/api/submissions?state=lost', admin), 400, 'BAD_REQUEST')
  })

  it('publishes a submission its maker marked sensitive as a sensitive animation, out of the lists visitors see', async () => {
    const id = await submit(maker, lottieBytes(), 'wave.json', { ...FIELDS, name: 'Sensitive Friend', sensitive: 'true' })
    const res = await decide(id, { decision: 'publish' })
    expect(res.status, await res.clone().text()).toBe(200)
    const { wumpusId } = submissionSchema.parse(await res.json())
    const animation = wumpusSchema.parse(await (await server.call('GET', `/api/wumpus/${wumpusId}`)).json())
    expect(animation).toMatchObject({ name: 'Sensitive Friend', sensitive: true })
    const listed = wumpusListSchema.parse(await (await server.call('GET', '/api/wumpuses?limit=100')).json())
    expect(listed.map((item) => item._id)).not.toContain(wumpusId)
  })

  it('publishes a submission as an animation of its submitter’s, with its licence and credit, in the activity log', async () => {
    const id = await submit(maker)
    await expectError(await decide(id, { decision: 'publish' }, maker), 403, 'FORBIDDEN')
    const res = await decide(id, { decision: 'publish' })
    expect(res.status, await res.clone().text()).toBe(200)
    const decided = submissionSchema.parse(await res.json())
    expect(decided).toMatchObject({ state: 'published' })
    expect(decided.lottie).toBeUndefined()
    const animation = wumpusSchema.parse(await (await server.call('GET', `/api/wumpus/${decided.wumpusId}`)).json())
    expect(animation).toMatchObject({
      name: 'Waving Friend',
      u_email: MAKER,
      u_name: 'Maker Person',
      licence: 'CC-BY-4.0',
      credit: 'Maker Person',
      tags: ['happy', 'wave'],
      keywords: ['hello', 'hi there'],
    })
    // Its Lottie names the credited maker in its metadata (meta.a), the rest of the Lottie as sent.
    const stored = (await (await fetch(server.url + animation.lottie)).json()) as Record<string, unknown>
    expect(stored.meta).toEqual({ a: 'Maker Person' })
    expect({ ...stored, meta: undefined }).toEqual({ ...lottie(), meta: undefined })
    // Its GIF and APNG were made from the Lottie, as for an admin's upload.
    expect((await fetch(server.url + animation.gif)).headers.get('content-type')).toBe('image/gif')
    expect((await fetch(server.url + animation.apng)).headers.get('content-type')).toBe('image/apng')
    expect(await find(maker, id)).toMatchObject({ state: 'published', wumpusId: animation._id })
    const log = activityListSchema.parse(await (await server.call('GET', '/api/activity?limit=5', admin)).json())
    expect(log.find((entry) => entry.action === 'submission.publish')).toMatchObject({ actor: ADMIN, target: { type: 'submission', id } })
    expect(log.find((entry) => entry.action === 'wumpus.publish')).toMatchObject({ actor: ADMIN, target: { id: animation._id } })
    // Decided: no second decision, no edit, no withdrawal.
    await expectError(await decide(id, { decision: 'refuse', note: 'Too late' }), 409, 'CONFLICT', 'not-waiting')
    await expectError(
      await server.call('PUT', `/api/submissions/${id}`, maker, form(undefined, { name: 'Renamed Later' })),
      409,
      'CONFLICT',
      'not-editable',
    )
    await expectError(await server.call('DELETE', `/api/submissions/${id}`, maker), 409, 'CONFLICT', 'not-editable')
  })

  it('asks for changes with a note; the submitter’s edit makes it wait again', async () => {
    const id = await submit(maker)
    await expectError(await decide(id, { decision: 'changes' }), 400, 'BAD_REQUEST')
    const asked = await decide(id, { decision: 'changes', note: 'Please loop it smoothly' })
    expect(submissionSchema.parse(await asked.json())).toMatchObject({ state: 'changes', note: 'Please loop it smoothly' })
    expect(await find(maker, id)).toMatchObject({ state: 'changes', note: 'Please loop it smoothly' })
    const queue = submissionListSchema.parse(await (await server.call('GET', '/api/submissions?state=changes&limit=100', admin)).json())
    expect(queue.map((s) => s.id)).toContain(id)
    await expectError(await decide(id, { decision: 'publish' }), 409, 'CONFLICT', 'not-waiting')
    const edited = await server.call(
      'PUT',
      `/api/submissions/${id}`,
      maker,
      form(undefined, { description: 'Now it loops smoothly, promise' }),
    )
    expect(edited.status).toBe(200)
    expect(submissionSchema.parse(await edited.json())).toMatchObject({ state: 'waiting', description: 'Now it loops smoothly, promise' })
    const log = activityListSchema.parse(await (await server.call('GET', '/api/activity?limit=5', admin)).json())
    expect(log.find((entry) => entry.target.id === id)).toMatchObject({ action: 'submission.changes', actor: ADMIN })
  })

  it('refuses with a reason, which the submitter sees', async () => {
    const id = await submit(maker)
    await expectError(await decide(id, { decision: 'refuse', note: '  ' }), 400, 'BAD_REQUEST')
    await expectError(await decide(id, { decision: 'maybe', note: 'x' }), 400, 'BAD_REQUEST')
    expect((await decide(id, { decision: 'refuse', note: 'Not a wumpus' })).status).toBe(200)
    expect(await find(maker, id)).toMatchObject({ state: 'refused', note: 'Not a wumpus' })
    await expectError(await decide('0'.repeat(24), { decision: 'refuse', note: 'x' }), 404, 'NOT_FOUND')
    await expectError(await decide('nope', { decision: 'refuse', note: 'x' }), 404, 'NOT_FOUND')
    const log = activityListSchema.parse(await (await server.call('GET', '/api/activity?limit=5', admin)).json())
    expect(log[0]).toMatchObject({ action: 'submission.refuse', actor: ADMIN, target: { type: 'submission', id } })
  })
})

describe('the submitter beside a submission', () => {
  it('shows admins the submitter’s submissions by state, their latest others, and the open reports against their stickers', async () => {
    const email = 'history@example.com'
    await server.store.users.upsert(email, { user_name: 'History Maker' })
    const token = await server.sessionToken(email)
    const refused = await submit(token)
    await decide(refused, { decision: 'refuse', note: 'Not a wumpus' })
    const older = [await submit(token), await submit(token), await submit(token), await submit(token), await submit(token)]
    const id = await submit(token)
    const reported = await addWumpus(server.store, { u_email: email, u_name: 'History Maker' })
    const reportedToo = await addWumpus(server.store, { u_email: email, u_name: 'History Maker' })
    const someoneElses = await addWumpus(server.store, { u_email: OTHER })
    for (const [record, reporterKey] of [
      [reported, 'a'],
      [reported, 'b'],
      [reportedToo, 'a'],
      [someoneElses, 'a'],
    ] as const) {
      await server.store.reports.insertOpen({ target: { kind: 'wumpus', id: record._id }, reason: 'broken', note: '', reporterKey })
    }

    const res = await server.call('GET', `/api/submissions/${id}/submitter`, admin)
    expect(res.status, await res.clone().text()).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const body = submitterRecordSchema.parse(await res.json())
    expect(body).toMatchObject({
      u_email: email,
      u_name: 'History Maker',
      counts: { waiting: 6, changes: 0, refused: 1, published: 0 },
      reports: { open: 3, stickers: 2 },
    })
    // The five newest others, newest first, without the one beside which they are shown.
    expect(body.recent.map((s) => s.id)).toEqual([...older].reverse())
    expect(body.recent[0]).toMatchObject({ name: FIELDS.name, state: 'waiting' })

    // Seen beside the refused one: it is among the others now, not itself.
    const beside = submitterRecordSchema.parse(await (await server.call('GET', `/api/submissions/${refused}/submitter`, admin)).json())
    expect(beside.recent.map((s) => s.id)).toEqual([id, ...older.slice(1).reverse()])

    await expectError(await server.call('GET', `/api/submissions/${id}/submitter`, token), 403, 'FORBIDDEN')
    await expectError(await server.call('GET', `/api/submissions/${id}/submitter`), 401, 'UNAUTHENTICATED')
    await expectError(await server.call('GET', `/api/submissions/${'0'.repeat(24)}/submitter`, admin), 404, 'NOT_FOUND')
    await expectError(await server.call('GET', '/api/submissions/nope/submitter', admin), 404, 'NOT_FOUND')
  })
})

describe('the files a submission would make', () => {
  it('shows admins each app’s file as far as it is judged without rendering: the .tgs made and checked, the others by duration', async () => {
    const id = await submit(maker)
    const res = await server.call('GET', `/api/submissions/${id}/fit`, admin)
    expect(res.status, await res.clone().text()).toBe(200)
    const fits = submissionFitSchema.parse(await res.json())
    expect(fits.map((f) => f.platform)).toEqual([
      'discord',
      'discord-emoji',
      'telegram',
      'telegram-emoji',
      'whatsapp',
      'signal',
      'line',
      'slack',
    ])
    const telegram = fits.find((f) => f.platform === 'telegram')!
    expect(telegram).toMatchObject({ label: 'Telegram', fits: true })
    expect(telegram.bytes).toBeGreaterThan(0)
    expect(fits.find((f) => f.platform === 'discord')).toMatchObject({ fits: null })

    // 4 s: past Telegram's 3 s (refused with its reason), within Discord's 5 s (judged on publish).
    const long = await submit(maker, lottieBytes({ op: 120 }))
    const longFits = submissionFitSchema.parse(await (await server.call('GET', `/api/submissions/${long}/fit`, admin)).json())
    expect(longFits.find((f) => f.platform === 'telegram')).toEqual({
      platform: 'telegram',
      label: 'Telegram',
      fits: false,
      notes: ['It runs 4 s; Telegram allows 3 s'],
    })
    expect(longFits.find((f) => f.platform === 'discord')).toMatchObject({ fits: null })
    const tooLong = await submit(maker, lottieBytes({ op: 330 }))
    const tooLongFits = submissionFitSchema.parse(await (await server.call('GET', `/api/submissions/${tooLong}/fit`, admin)).json())
    expect(tooLongFits.find((f) => f.platform === 'whatsapp')).toMatchObject({
      fits: false,
      notes: ['The animation runs 11 s; WhatsApp allows 10 s'],
    })

    await expectError(await server.call('GET', `/api/submissions/${id}/fit`, maker), 403, 'FORBIDDEN')
    await expectError(await server.call('GET', `/api/submissions/${'0'.repeat(24)}/fit`, admin), 404, 'NOT_FOUND')
  })
})

describe('limits', () => {
  let limited: TestServer
  beforeAll(async () => {
    limited = await startTestServer({ RATE_LIMIT_FACTOR: '1', SUBMISSIONS_WAITING_MAX: '2', SUBMISSIONS_PER_DAY: '3' })
  })
  afterAll(() => limited.close())

  const send = async (token: string) => limited.call('POST', '/api/submissions', token, form({ bytes: lottieBytes(), name: 'w.json' }))

  it('refuses a submission past the waiting cap (409) and past the day’s (429), in the error shape', async () => {
    const token = await limited.sessionToken('busy@example.com')
    const first = submissionCreatedSchema.parse(await (await send(token)).json()).id
    expect((await send(token)).status).toBe(201)
    const full = await expectError(await send(token), 409, 'CONFLICT', 'submissions-waiting')
    expect(full.details).toMatchObject({ max: 2 })
    // A bad file is refused before it is counted.
    const badFile = await limited.call('POST', '/api/submissions', token, form({ bytes: stillPng(), name: 'w.json' }))
    expect(errorBody(await badFile.json()).error.code).toBe('UNSUPPORTED_MEDIA_TYPE')
    expect((await limited.call('DELETE', `/api/submissions/${first}`, token)).status).toBe(204)
    expect((await send(token)).status).toBe(201)
    expect((await limited.call('DELETE', `/api/submissions/${first}`, token)).status).toBe(404)
    // Withdrawing gives none of the day's back: three sent today.
    const mineNow = submissionListSchema.parse(await (await limited.call('GET', '/api/me/submissions', token)).json())
    expect((await limited.call('DELETE', `/api/submissions/${mineNow[0]!.id}`, token)).status).toBe(204)
    const res = await send(token)
    const error = await expectError(res, 429, 'RATE_LIMITED')
    expect(error.details).toMatchObject({ limit: 'submissions', max: 3 })
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    // Another account has its own.
    expect((await send(await limited.sessionToken('calm@example.com'))).status).toBe(201)
  })
})
