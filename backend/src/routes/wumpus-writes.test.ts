import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { wumpusListSchema, wumpusSchema } from '../../../contract/wumpus'
import {
  renderResponseSchema,
  uploadedAnimationFileSchema,
  userListSchema,
  type UploadedAnimationFile,
} from '../../../contract/wumpus-write'
import { inspectMedia } from '../media/inspect/inspect'
import { buildGif } from '../../test/fixtures/gif'
import { lottie, lottieBytes } from '../../test/fixtures/lottie'
import { buildApng, stillPng } from '../../test/fixtures/png'
import { errorBody, expectError } from '../../test/support/error-body'
import { startTestServer, type TestServer } from '../../test/support/test-server'

let server: TestServer
const ADMIN = 'admin@example.com'
const MAKER = 'maker@example.com'
let admin: string
let maker: string
let stranger: string

beforeAll(async () => {
  server = await startTestServer({ MAX_GIF_BYTES: '60000' })
  await server.store.users.upsert(ADMIN, { user_name: 'Admin Person', role: 'admin' })
  await server.store.users.upsert(MAKER, { user_name: 'Maker Person' })
  admin = await server.sessionToken(ADMIN)
  maker = await server.sessionToken(MAKER)
  stranger = await server.sessionToken('stranger@example.com')
})
afterAll(() => server.close())

const call = (method: string, path: string, token?: string, body?: unknown) => server.call(method, path, token, body)

const form = (files: Record<string, { bytes: Uint8Array; name: string }>, fields: Record<string, string> = {}) => {
  const data = new FormData()
  for (const [key, value] of Object.entries(fields)) data.append(key, value)
  for (const [field, file] of Object.entries(files)) data.append(field, new Blob([new Uint8Array(file.bytes)]), file.name)
  return data
}

async function upload(format: 'gif' | 'apng' | 'lottie', bytes: Uint8Array, name: string, token = admin): Promise<UploadedAnimationFile> {
  const res = await call('POST', `/api/uploads/animation?format=${format}`, token, form({ file: { bytes, name } }))
  expect(res.status, await res.clone().text()).toBe(201)
  return uploadedAnimationFileSchema.parse(await res.json())
}

const threeUploads = async (token = admin) => ({
  gif: (await upload('gif', buildGif(), 'hello.gif', token)).id,
  apng: (await upload('apng', buildApng(), 'hello.png', token)).id,
  lottie: (await upload('lottie', lottieBytes(), 'hello.json', token)).id,
})

const allFileIds = async () =>
  (await server.store.files.list({ createdBefore: new Date(Date.now() + 60_000), limit: 10_000 })).map((f) => f.id).sort()

describe('POST /api/uploads/animation', () => {
  it('stores a file judged by its bytes and tells what it found', async () => {
    const uploaded = await upload('apng', buildApng({ width: 6, height: 5 }), 'Dance Party.PNG')
    expect(uploaded.filename).toBe('Dance Party.png')
    expect(uploaded.info).toMatchObject({ format: 'apng', width: 6, height: 5, frames: 3 })
    expect((await fetch(server.url + uploaded.url)).headers.get('content-type')).toBe('image/apng')
  })

  it.each([
    ['a PNG sent as a GIF', 'gif', stillPng(), 415, 'WRONG_FORMAT'],
    ['a still PNG sent as an APNG', 'apng', stillPng(), 415, 'NOT_ANIMATED'],
    ['a truncated GIF', 'gif', buildGif().slice(0, 20), 400, 'TRUNCATED'],
    ['HTML named .json', 'lottie', new TextEncoder().encode('<html></html>'), 400, 'INVALID_JSON'],
  ] as const)('refuses %s, saying why', async (_, format, bytes, status, mediaCode) => {
    const res = await call('POST', `/api/uploads/animation?format=${format}`, admin, form({ file: { bytes, name: `x.${format}` } }))
    expect(res.status).toBe(status)
    expect((errorBody(await res.json()).error.details as { mediaCode: string }).mediaCode).toBe(mediaCode)
  })

  it('refuses a GIF above its limit with 413, and a missing format with 400', async () => {
    const big = new Uint8Array(70_000)
    big.set(buildGif())
    await expectError(
      await call('POST', '/api/uploads/animation?format=gif', admin, form({ file: { bytes: big, name: 'big.gif' } })),
      413,
      'PAYLOAD_TOO_LARGE',
    )
    await expectError(
      await call('POST', '/api/uploads/animation', admin, form({ file: { bytes: buildGif(), name: 'a.gif' } })),
      400,
      'BAD_REQUEST',
    )
  })

  it('is for admins only', async () => {
    await expectError(
      await call('POST', '/api/uploads/animation?format=gif', maker, form({ file: { bytes: buildGif(), name: 'a.gif' } })),
      403,
      'FORBIDDEN',
    )
  })
})

describe('POST /api/renders and lottie links', () => {
  it('renders GIF and APNG from an uploaded Lottie, both valid', async () => {
    const lottie = await upload('lottie', lottieBytes(), 'bounce.json')
    const res = await call('POST', '/api/renders', admin, { lottie: lottie.id })
    expect(res.status).toBe(201)
    const rendered = renderResponseSchema.parse(await res.json())
    expect(rendered.gif.info).toMatchObject({ format: 'gif', width: 320, height: 320 })
    expect(rendered.apng.info).toMatchObject({ format: 'apng', width: 320, height: 320 })
    const gifBytes = new Uint8Array(await (await fetch(server.url + rendered.gif.url)).arrayBuffer())
    expect(inspectMedia(gifBytes, 'gif').frames).toBeGreaterThan(1)
  })

  it('takes a Lottie from one of our own file links', async () => {
    const lottie = await upload('lottie', lottieBytes(), 'linked.json')
    const res = await call('POST', '/api/uploads/lottie-link', admin, { url: `${server.url}${lottie.url}` })
    expect(res.status).toBe(201)
    expect(uploadedAnimationFileSchema.parse(await res.json()).info.format).toBe('lottie')
  })

  it('refuses links the server must not fetch', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'https://127.0.0.1:9/x.json',
      'https://[64:ff9b::a9fe:a9fe]/x.json',
      'https://example.com:8443/x.json',
    ]) {
      await expectError(await call('POST', '/api/uploads/lottie-link', admin, { url }), 400, 'BAD_REQUEST')
    }
  })

  it('refuses a Lottie over the complexity limits with its code', async () => {
    const heavy = lottieBytes({ layers: Array.from({ length: 1001 }, () => (lottie().layers as object[])[0]) })
    const res = await call('POST', '/api/uploads/animation?format=lottie', admin, form({ file: { bytes: heavy, name: 'heavy.json' } }))
    expect(res.status).toBe(400)
    expect(errorBody(await res.json()).error.details).toMatchObject({ mediaCode: 'TOO_COMPLEX', what: 'layers' })
  })

  it('refuses a Lottie whose gradient claims millions of colour stops, in the error shape', async () => {
    const ball = (lottie().layers as Record<string, unknown>[])[0]!
    const gradient = {
      ty: 'gf',
      o: { a: 0, k: 100 },
      s: { a: 0, k: [0, 0] },
      e: { a: 0, k: [1, 1] },
      t: 1,
      g: { p: 3_000_000, k: { a: 0, k: [0, 1, 0, 0, 1, 0, 0, 1] } },
    }
    const heavy = lottieBytes({ layers: [{ ...ball, shapes: [...(ball.shapes as object[]), gradient] }] })
    const res = await call('POST', '/api/uploads/animation?format=lottie', admin, form({ file: { bytes: heavy, name: 'gradient.json' } }))
    expect(res.status).toBe(400)
    const { error } = errorBody(await res.json())
    expect(error).toMatchObject({ code: 'BAD_REQUEST', details: { mediaCode: 'TOO_COMPLEX', what: 'gradient stops', count: 3_000_000 } })
    expect(error.message).toMatch(/gradient colour stops/)
  })

  it('says a render failed without passing on what the renderer said', async () => {
    // A valid Lottie file, but 1,000 s long: more frames than the renderer makes.
    const broken = await upload('lottie', lottieBytes({ fr: 1, op: 1000 }), 'broken.json')
    const res = await call('POST', '/api/renders', admin, { lottie: broken.id })
    expect(res.status).toBe(400)
    const { error } = errorBody(await res.json())
    expect(error).toMatchObject({ code: 'BAD_REQUEST', details: { reason: 'render-failed' } })
    expect(error.message).not.toMatch(/frames|worker|Invalid Lottie|Error:/)
  })

  it('answers 503 with Retry-After while the render queue is full, and renders again afterwards', async () => {
    const lottie = await upload('lottie', lottieBytes(), 'queued.json')
    const answers = await Promise.all(Array.from({ length: 10 }, () => call('POST', '/api/renders', admin, { lottie: lottie.id })))
    const busy = answers.filter((res) => res.status === 503)
    expect(busy.length).toBeGreaterThan(0)
    expect(answers.filter((res) => res.status === 201).length).toBeGreaterThan(0)
    expect(answers.every((res) => res.status === 201 || res.status === 503)).toBe(true)
    expect(Number(busy[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(errorBody(await busy[0]!.json()).error.code).toBe('SERVER_BUSY')
    expect((await call('POST', '/api/renders', admin, { lottie: lottie.id })).status).toBe(201)
  })
})

describe('POST /api/wumpuses', () => {
  it('publishes uploaded files under the signed-in admin, whatever the body says', async () => {
    const files = await threeUploads()
    const res = await call('POST', '/api/wumpuses', admin, { name: 'New Wumpus', description: 'A brand new animated friend', files })
    expect(res.status).toBe(201)
    const created = wumpusSchema.parse(await res.json())
    expect(created).toMatchObject({ name: 'New Wumpus', u_email: ADMIN, u_name: 'Admin Person' })
    expect(created.gif).toBe(`/api/files/${files.gif}/hello.gif`)
    const listed = wumpusListSchema.parse(await (await call('GET', '/api/wumpuses?limit=1')).json())
    expect(listed[0]?._id).toBe(created._id)

    const spoof = await call('POST', '/api/wumpuses', admin, {
      name: 'Spoof',
      description: 'Pretending to be someone',
      files: await threeUploads(),
      u_email: 'victim@example.com',
    })
    await expectError(spoof, 400, 'BAD_REQUEST')
  })

  it('takes a licence and credit, as JSON or multipart fields, and refuses a licence not on the list', async () => {
    const json = await call('POST', '/api/wumpuses', admin, {
      name: 'Licensed Wumpus',
      description: 'Free for everyone to use',
      files: await threeUploads(),
      licence: 'CC-BY-4.0',
      credit: '  Ana Lima ',
    })
    expect(json.status).toBe(201)
    const created = (await json.json()) as { _id: string }
    expect(created).toMatchObject({ licence: 'CC-BY-4.0', credit: 'Ana Lima' })
    expect(await (await call('GET', `/api/wumpus/${created._id}`)).json()).toMatchObject({ licence: 'CC-BY-4.0', credit: 'Ana Lima' })

    const fields = { name: 'Multipart Licensed', description: 'Sent as a form with a licence', licence: 'CC0-1.0', credit: 'Bo' }
    const files = {
      gif: { bytes: buildGif(), name: 'l.gif' },
      apng: { bytes: buildApng(), name: 'l.png' },
      lottie: { bytes: lottieBytes(), name: 'l.json' },
    }
    const sent = await call('POST', '/api/wumpuses', admin, form(files, fields))
    expect(sent.status, await sent.clone().text()).toBe(201)
    expect(await sent.json()).toMatchObject({ licence: 'CC0-1.0', credit: 'Bo' })

    const bad = await call('POST', '/api/wumpuses', admin, {
      name: 'Badly Licensed',
      description: 'A licence nobody knows',
      files: await threeUploads(),
      licence: 'WTFPL',
    })
    await expectError(bad, 400, 'BAD_REQUEST')
    const long = await call('POST', '/api/wumpuses', admin, {
      name: 'Long Credit',
      description: 'A credit far too long',
      files: await threeUploads(),
      credit: 'x'.repeat(121),
    })
    await expectError(long, 400, 'BAD_REQUEST')
  })

  it('keeps tags normalized, without repeats, and refuses tags that break the rules, saying which', async () => {
    const res = await call('POST', '/api/wumpuses', admin, {
      name: 'Tagged Wumpus',
      description: 'Carries a few tags',
      files: await threeUploads(),
      tags: [' Happy ', 'happy', 'Thumbs Up', 'café'],
    })
    expect(res.status, await res.clone().text()).toBe(201)
    const created = wumpusSchema.parse(await res.json())
    expect(created.tags).toEqual(['happy', 'thumbs-up', 'cafe'])
    expect(await (await call('GET', '/api/tags?limit=100')).json()).toEqual(expect.arrayContaining([{ tag: 'thumbs-up', count: 1 }]))

    for (const [tags, message] of [
      [['x'], 'A tag has at least 2 characters'],
      [['a'.repeat(25)], 'A tag has at most 24 characters'],
      [['snake_case'], 'Tags are lower-case words: letters a-z, digits and hyphens'],
      [Array.from({ length: 9 }, (_, i) => `tag${i}`), 'At most 8 tags'],
    ] as const) {
      const refused = await call('POST', '/api/wumpuses', admin, {
        name: 'Badly Tagged',
        description: 'Carries a bad tag',
        files: await threeUploads(),
        tags,
      })
      expect(refused.status).toBe(400)
      expect(errorBody(await refused.json()).error.details).toEqual([
        expect.objectContaining({ path: expect.stringMatching(/^tags/), message }),
      ])
    }
  })

  it('keeps emoji with their names in order and keywords in lower case, and refuses what is not an emoji or breaks the limits', async () => {
    const res = await call('POST', '/api/wumpuses', admin, {
      name: 'Emoji Wumpus',
      description: 'Carries emoji and keywords',
      files: await threeUploads(),
      // Without its variation selector, and a repeat with a skin tone: one heart, one wave.
      emoji: ['❤', '👋', '👋🏽', '✨'],
      keywords: [' Good  Morning ', 'good morning', 'hi'],
    })
    expect(res.status, await res.clone().text()).toBe(201)
    const created = wumpusSchema.parse(await res.json())
    expect(created.emoji).toEqual([
      { char: '❤️', name: 'red heart', shortcode: 'heart' },
      { char: '👋', name: 'waving hand', shortcode: 'wave' },
      { char: '✨', name: 'sparkles', shortcode: 'sparkles' },
    ])
    expect(created.keywords).toEqual(['good morning', 'hi'])
    expect(await (await call('GET', '/api/emoji?limit=100')).json()).toEqual(
      expect.arrayContaining([{ char: '👋', name: 'waving hand', shortcode: 'wave', count: 1 }]),
    )
    for (const q of ['👋🏻', 'wave', 'sparkles', 'good morning']) {
      const found = wumpusListSchema.parse(await (await call('GET', `/api/wumpuses?q=${encodeURIComponent(q)}`)).json())
      expect(
        found.map((item) => item._id),
        q,
      ).toContain(created._id)
    }

    const letters = 'abcdefghijklmnopqrstu'
    for (const [fields, path, message] of [
      [{ emoji: ['A'] }, 'emoji.0', 'Not an emoji: A'],
      [{ emoji: ['🏻'] }, 'emoji.0', 'Not an emoji: 🏻'],
      [{ emoji: ['👋👋'] }, 'emoji.0', 'Not an emoji: 👋👋'],
      [{ emoji: [...'😀😁😂🤣😃😄😅😆😉😊😋😎😍😘🥰😗😙🥲😚🙂🤗'] }, 'emoji', 'At most 20 emoji'],
      [{ keywords: ['hi!'] }, 'keywords.0', 'Keywords are words: letters and digits, with spaces, hyphens or apostrophes between'],
      [{ keywords: [...letters] }, 'keywords', 'At most 20 keywords'],
      [{ keywords: ['a'.repeat(40), 'b'.repeat(30)] }, 'keywords', 'Keywords have at most 64 characters in all'],
    ] as const) {
      const refused = await call('POST', '/api/wumpuses', admin, {
        name: 'Bad Emoji Wumpus',
        description: 'Carries a bad emoji or keyword',
        files: await threeUploads(),
        ...fields,
      })
      expect(refused.status).toBe(400)
      expect(errorBody(await refused.json()).error.details).toEqual([expect.objectContaining({ path, message })])
    }
  })

  it("refuses file ids that are unknown, of the wrong kind, not the sender's, or already used", async () => {
    const files = await threeUploads()
    const body = (override: object) => ({ name: 'Checked Wumpus', description: 'Checking every file id', files: { ...files, ...override } })
    await expectError(await call('POST', '/api/wumpuses', admin, body({ gif: '0123456789abcdef01234567' })), 404, 'NOT_FOUND')
    await expectError(await call('POST', '/api/wumpuses', admin, body({ gif: files.apng })), 415, 'UNSUPPORTED_MEDIA_TYPE')
    await server.store.users.setRole(MAKER, 'admin')
    const makersGif = (await upload('gif', buildGif(), 'maker.gif', maker)).id
    await server.store.users.upsert(MAKER, { role: 'user' })
    await expectError(await call('POST', '/api/wumpuses', admin, body({ gif: makersGif })), 403, 'FORBIDDEN')
    expect((await call('POST', '/api/wumpuses', admin, body({}))).status).toBe(201)
    await expectError(await call('POST', '/api/wumpuses', admin, body({})), 409, 'CONFLICT')
  })

  it('gives a file to one animation only when publishes and edits race for it', async () => {
    const files = await threeUploads()
    const body = { name: 'Raced Wumpus', description: 'Two admins press publish at once', files }
    const other = wumpusSchema.parse(await (await call('POST', '/api/wumpuses', admin, { ...body, files: await threeUploads() })).json())
    const answers = await Promise.all([
      call('POST', '/api/wumpuses', admin, body),
      call('POST', '/api/wumpuses', admin, body),
      call('PUT', `/api/wumpuses/${other._id}`, admin, { files: { gif: files.gif } }),
    ])
    expect(answers.filter((res) => res.status < 300)).toHaveLength(1)
    expect(answers.filter((res) => res.status === 409)).toHaveLength(2)
    const page = await (await call('GET', '/api/wumpuses?limit=100')).json()
    const holding = (page as { gif: string }[]).filter((w) => w.gif.includes(files.gif))
    expect(holding).toHaveLength(1)
  })

  it.each([
    ['a short name', { name: 'ab' }, 'Name should be at least 3 characters'],
    ['a name with symbols', { name: 'Bad$Name' }, 'Provide a valid name'],
    ['a short description', { description: 'too short' }, 'Description should be at least 10 characters'],
    ['an operator object', { name: { $gt: '' } }, undefined],
  ])('refuses %s with 400 and the message', async (_, override, message) => {
    const res = await call('POST', '/api/wumpuses', admin, {
      name: 'Fine Name',
      description: 'A fine description',
      files: await threeUploads(),
      ...override,
    })
    expect(res.status).toBe(400)
    const body = errorBody(await res.json())
    if (message) expect(JSON.stringify(body.error.details)).toContain(message)
  })

  it('publishes three files sent as multipart', async () => {
    const res = await call(
      'POST',
      '/api/wumpuses',
      admin,
      form(
        {
          gif: { bytes: buildGif(), name: 'multi.gif' },
          apng: { bytes: buildApng(), name: 'multi.png' },
          lottie: { bytes: lottieBytes(), name: 'multi.json' },
        },
        { name: 'Multipart Wumpus', description: 'Sent in one request' },
      ),
    )
    expect(res.status, await res.clone().text()).toBe(201)
    const created = wumpusSchema.parse(await res.json())
    expect(created.lottie).toMatch(/\/multi\.json$/)
    expect(created.tags).toEqual([])
  })

  it('takes tags as multipart fields, one per tag or comma-separated', async () => {
    const data = form(
      {
        lottie: { bytes: lottieBytes(), name: 'tags.json' },
        gif: { bytes: buildGif(), name: 'tags.gif' },
        apng: { bytes: buildApng(), name: 'tags.png' },
      },
      { name: 'Form Tagged', description: 'Tags sent as form fields' },
    )
    data.append('tags', 'party, Night')
    const res = await call('POST', '/api/wumpuses', admin, data)
    expect(res.status, await res.clone().text()).toBe(201)
    expect(wumpusSchema.parse(await res.json()).tags).toEqual(['party', 'night'])
    const repeated = form(
      {
        lottie: { bytes: lottieBytes(), name: 'tags.json' },
        gif: { bytes: buildGif(), name: 'tags.gif' },
        apng: { bytes: buildApng(), name: 'tags.png' },
      },
      { name: 'Form Tagged Two', description: 'Tags sent as form fields' },
    )
    repeated.append('tags', 'one')
    repeated.append('tags', 'two')
    expect(wumpusSchema.parse(await (await call('POST', '/api/wumpuses', admin, repeated)).json()).tags).toEqual(['one', 'two'])
  })

  it('takes emoji as multipart fields, all in one or one per field, and keywords like tags', async () => {
    const files = {
      lottie: { bytes: lottieBytes(), name: 'emoji.json' },
      gif: { bytes: buildGif(), name: 'emoji.gif' },
      apng: { bytes: buildApng(), name: 'emoji.png' },
    }
    const together = form(files, {
      name: 'Form Emoji',
      description: 'Emoji sent as form fields',
      emoji: '👋 🎉',
      keywords: 'hi, party time',
    })
    const res = await call('POST', '/api/wumpuses', admin, together)
    expect(res.status, await res.clone().text()).toBe(201)
    const created = wumpusSchema.parse(await res.json())
    expect(created.emoji.map((emoji) => emoji.char)).toEqual(['👋', '🎉'])
    expect(created.keywords).toEqual(['hi', 'party time'])
    const apart = form(files, { name: 'Form Emoji Two', description: 'Emoji sent as form fields' })
    apart.append('emoji', '😴')
    apart.append('emoji', '🌙')
    expect(wumpusSchema.parse(await (await call('POST', '/api/wumpuses', admin, apart)).json()).emoji.map((emoji) => emoji.char)).toEqual([
      '😴',
      '🌙',
    ])
  })

  it('renders GIF and APNG when only a Lottie is sent', async () => {
    const res = await call(
      'POST',
      '/api/wumpuses',
      admin,
      form({ lottie: { bytes: lottieBytes(), name: 'solo.json' } }, { name: 'Solo Lottie', description: 'Only a Lottie was sent' }),
    )
    expect(res.status, await res.clone().text()).toBe(201)
    const created = wumpusSchema.parse(await res.json())
    for (const [format, url] of [
      ['gif', created.gif],
      ['apng', created.apng],
    ] as const) {
      const bytes = new Uint8Array(await (await fetch(server.url + url)).arrayBuffer())
      expect(inspectMedia(bytes, format).frames).toBeGreaterThan(1)
    }
  })

  it('leaves no file and no record behind when one file is bad', async () => {
    const filesBefore = await allFileIds()
    const countBefore = await server.store.wumpuses.count()
    const res = await call(
      'POST',
      '/api/wumpuses',
      admin,
      form(
        {
          lottie: { bytes: lottieBytes(), name: 'ok.json' },
          apng: { bytes: buildApng(), name: 'ok.png' },
          gif: { bytes: stillPng(), name: 'bad.gif' },
        },
        { name: 'Broken Wumpus', description: 'One of its files is bad' },
      ),
    )
    expect(res.status).toBe(415)
    expect(await allFileIds()).toEqual(filesBefore)
    expect(await server.store.wumpuses.count()).toBe(countBefore)
  })

  it('is for verified admins only', async () => {
    const files = await threeUploads()
    const body = { name: 'Not Allowed', description: 'Nobody may publish this', files }
    await expectError(await call('POST', '/api/wumpuses', maker, body), 403, 'FORBIDDEN')
    await expectError(
      await call('POST', '/api/wumpuses', await server.sessionToken(ADMIN, { emailVerified: false }), body),
      403,
      'FORBIDDEN',
    )
    await expectError(await call('POST', '/api/wumpuses', undefined, body), 401, 'UNAUTHENTICATED')
  })
})

describe('PUT /api/wumpuses/{id} and DELETE /api/wumpus/{id}', () => {
  async function makersWumpus() {
    // Published by an admin on the maker's behalf is not possible; the maker was an admin once.
    await server.store.users.setRole(MAKER, 'admin')
    const files = await threeUploads(maker)
    const res = await call('POST', '/api/wumpuses', maker, { name: 'Makers Wumpus', description: 'Made by the maker', files })
    await server.store.users.upsert(MAKER, { role: 'user' })
    return wumpusSchema.parse(await res.json())
  }

  it('lets the uploader change only the name and keeps the rest', async () => {
    const wumpus = await makersWumpus()
    const res = await call('PUT', `/api/wumpuses/${wumpus._id}`, maker, { name: 'Renamed Wumpus' })
    expect(res.status).toBe(200)
    expect(wumpusSchema.parse(await res.json())).toEqual({ ...wumpus, name: 'Renamed Wumpus' })
  })

  it('changes the licence and credit, leaving the rest alone', async () => {
    const wumpus = await makersWumpus()
    expect(wumpus).toMatchObject({ licence: 'gallery-only', credit: '' })
    const res = await call('PUT', `/api/wumpuses/${wumpus._id}`, admin, { licence: 'CC-BY-SA-4.0', credit: 'The Maker' })
    expect(res.status).toBe(200)
    const edited = wumpusSchema.parse(await res.json())
    // A new maker: the Lottie is stored again naming them (services/lottie-credit.ts), under another URL.
    expect(edited).toEqual({ ...wumpus, licence: 'CC-BY-SA-4.0', credit: 'The Maker', lottie: edited.lottie })
    expect(edited.lottie).not.toBe(wumpus.lottie)
    expect(((await (await call('GET', edited.lottie)).json()) as { meta?: { a?: string } }).meta?.a).toBe('The Maker')
    await expectError(await call('PUT', `/api/wumpuses/${wumpus._id}`, admin, { licence: 'mine' }), 400, 'BAD_REQUEST')
  })

  it('replaces the tags, or removes them with an empty list, leaving the rest alone', async () => {
    const wumpus = await makersWumpus()
    const tagged = wumpusSchema.parse(await (await call('PUT', `/api/wumpuses/${wumpus._id}`, admin, { tags: ['Sleepy', 'blue'] })).json())
    expect(tagged).toEqual({ ...wumpus, tags: ['sleepy', 'blue'] })
    expect(wumpusListSchema.parse(await (await call('GET', '/api/wumpuses?tag=sleepy')).json()).map((item) => item._id)).toEqual([
      wumpus._id,
    ])
    const untagged = wumpusSchema.parse(await (await call('PUT', `/api/wumpuses/${wumpus._id}`, admin, { tags: [] })).json())
    expect(untagged.tags).toEqual([])
    await expectError(await call('PUT', `/api/wumpuses/${wumpus._id}`, admin, { tags: 'sleepy' }), 400, 'BAD_REQUEST')
  })

  it('replaces the emoji and keywords, or removes them, leaving the rest alone', async () => {
    const wumpus = await makersWumpus()
    expect(wumpus).toMatchObject({ emoji: [], keywords: [] })
    const res = await call('PUT', `/api/wumpuses/${wumpus._id}`, maker, { emoji: ['😴', '🌙'], keywords: ['Bedtime'] })
    expect(res.status, await res.clone().text()).toBe(200)
    const edited = wumpusSchema.parse(await res.json())
    expect(edited).toEqual({
      ...wumpus,
      emoji: [
        { char: '😴', name: 'sleeping face', shortcode: 'sleeping' },
        { char: '🌙', name: 'crescent moon', shortcode: 'crescent_moon' },
      ],
      keywords: ['bedtime'],
    })
    expect(
      wumpusListSchema.parse(await (await call('GET', `/api/wumpuses?q=${encodeURIComponent('🌙 bedtime')}`)).json()).map((w) => w._id),
    ).toEqual([wumpus._id])
    const cleared = wumpusSchema.parse(await (await call('PUT', `/api/wumpuses/${wumpus._id}`, maker, { emoji: [], keywords: [] })).json())
    expect(cleared).toEqual(wumpus)
    await expectError(await call('PUT', `/api/wumpuses/${wumpus._id}`, maker, { emoji: '😴' }), 400, 'BAD_REQUEST')
    await expectError(await call('PUT', `/api/wumpuses/${wumpus._id}`, stranger, { emoji: ['😴'] }), 403, 'FORBIDDEN')
  })

  it('lets an admin edit, and refuses everyone else', async () => {
    const wumpus = await makersWumpus()
    expect((await call('PUT', `/api/wumpuses/${wumpus._id}`, admin, { description: 'Edited by the admin' })).status).toBe(200)
    await expectError(await call('PUT', `/api/wumpuses/${wumpus._id}`, stranger, { name: 'Hijacked' }), 403, 'FORBIDDEN')
    await expectError(await call('PUT', `/api/wumpuses/${wumpus._id}`, undefined, { name: 'Hijacked' }), 401, 'UNAUTHENTICATED')
    await expectError(await call('PUT', '/api/wumpuses/0123456789abcdef01234567', admin, { name: 'Nobody' }), 404, 'NOT_FOUND')
    await expectError(await call('PUT', `/api/wumpuses/${wumpus._id}`, admin, { u_email: 'x@example.com' }), 400, 'BAD_REQUEST')
  })

  it('replaces a file and removes the old one', async () => {
    const wumpus = await makersWumpus()
    await server.store.users.setRole(MAKER, 'admin')
    const gif = await upload('gif', buildGif({ width: 8, height: 8 }), 'new.gif', maker)
    await server.store.users.upsert(MAKER, { role: 'user' })
    const res = await call('PUT', `/api/wumpuses/${wumpus._id}`, maker, { files: { gif: gif.id } })
    const updated = wumpusSchema.parse(await res.json())
    expect(updated.gif).toBe(gif.url)
    expect(updated.apng).toBe(wumpus.apng)
    expect((await fetch(server.url + wumpus.gif)).status).toBe(404)
  })

  it('deletes the record and its three files, once, for admins only', async () => {
    const wumpus = await makersWumpus()
    await expectError(await call('DELETE', `/api/wumpus/${wumpus._id}`, maker), 403, 'FORBIDDEN')
    expect(await (await call('DELETE', `/api/wumpus/${wumpus._id}`, admin)).json()).toEqual({ deletedCount: 1 })
    for (const url of [wumpus.gif, wumpus.apng, wumpus.lottie]) expect((await fetch(server.url + url)).status).toBe(404)
    expect((await call('GET', `/api/wumpus/${wumpus._id}`)).status).toBe(404)
    expect(await (await call('DELETE', `/api/wumpus/${wumpus._id}`, admin)).json()).toEqual({ deletedCount: 0 })
  })
})

describe('users and roles', () => {
  it('lists users to admins only', async () => {
    const res = await call('GET', '/api/users', admin)
    expect(userListSchema.parse(await res.json()).map((u) => u.email)).toEqual(expect.arrayContaining([ADMIN, MAKER]))
    await expectError(await call('GET', '/api/users', maker), 403, 'FORBIDDEN')
  })

  it('makes a user admin once; others get 403', async () => {
    await server.store.users.upsert('promote@example.com', { user_name: 'Promotable' })
    const denied = await call('PUT', '/api/user/admin/promote@example.com', maker)
    expect(denied.status).toBe(403)
    expect(errorBody(await denied.json()).error.message).toBe('You are not authorized to make this user an admin')
    expect(await (await call('PUT', '/api/user/admin/promote@example.com', admin)).json()).toEqual({ modifiedCount: 1 })
    expect(await (await call('PUT', '/api/user/admin/promote@example.com', admin)).json()).toEqual({ modifiedCount: 0 })
    expect((await server.store.users.get('promote@example.com'))!.role).toBe('admin')
    await expectError(await call('PUT', '/api/user/admin/nobody@example.com', admin), 404, 'NOT_FOUND')
  })
})
