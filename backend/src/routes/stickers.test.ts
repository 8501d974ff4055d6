import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { wumpusColoursPath } from '../../../contract/api-paths'
import { colourChoicesSchema } from '../../../contract/remix/recipe'
import { PLATFORMS, stickerExportListSchema, type StickerExport } from '../../../contract/stickers'
import { wumpusListSchema, wumpusSchema } from '../../../contract/wumpus'
import { uploadedAnimationFileSchema } from '../../../contract/wumpus-write'
import { checkStickerFile } from '../media/exports/platform-check'
import { buildGif } from '../../test/fixtures/gif'
import { lottieBytes } from '../../test/fixtures/lottie'
import { buildApng } from '../../test/fixtures/png'
import { errorBody } from '../../test/support/error-body'
import { addWumpus, startTestServer, type TestServer } from '../../test/support/test-server'

let server: TestServer
let admin: string
const ADMIN = 'admin@example.com'

beforeAll(async () => {
  server = await startTestServer({}, { deriveMedia: true })
  await server.store.users.upsert(ADMIN, { user_name: 'Admin Person', role: 'admin' })
  admin = await server.sessionToken(ADMIN)
})
afterAll(() => server.close())

const call = (method: string, path: string, body?: unknown) =>
  fetch(server.url + path, {
    method,
    headers: {
      authorization: `Bearer ${admin}`,
      ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
  })

async function upload(format: 'gif' | 'apng' | 'lottie', bytes: Uint8Array, name: string): Promise<string> {
  const data = new FormData()
  data.append('file', new Blob([new Uint8Array(bytes)]), name)
  const res = await call('POST', `/api/uploads/animation?format=${format}`, data)
  expect(res.status, await res.clone().text()).toBe(201)
  return uploadedAnimationFileSchema.parse(await res.json()).id
}

async function publish(name: string, lottie = lottieBytes()): Promise<string> {
  const files = {
    gif: await upload('gif', buildGif(), 'a.gif'),
    apng: await upload('apng', buildApng(), 'a.png'),
    lottie: await upload('lottie', lottie, 'a.json'),
  }
  const res = await call('POST', '/api/wumpuses', { name, description: 'A wumpus to export everywhere', files })
  expect(res.status, await res.clone().text()).toBe(201)
  return wumpusSchema.parse(await res.json())._id
}

async function stickers(id: string): Promise<StickerExport[]> {
  const res = await fetch(`${server.url}/api/wumpus/${id}/stickers`)
  expect(res.status).toBe(200)
  expect(res.headers.get('cache-control')).toBe('no-cache')
  return stickerExportListSchema.parse(await res.json())
}

describe('GET /api/wumpus/{id}/stickers', () => {
  it('says every platform is being made until the previews and exports exist', async () => {
    const record = await addWumpus(server.store, { name: 'Not Yet Wumpus' })
    const list = await stickers(record._id)
    expect(list.map((s) => [s.platform, s.status, s.url])).toEqual(PLATFORMS.map((p) => [p, 'pending', null]))
    expect(list[0]!.notes[0]).toMatch(/Being made/)
  })

  it("lists each file's emoji as its app takes them: WhatsApp the first 3, Telegram all, Signal and Discord the first, the rest none", async () => {
    const emoji = [...'👋🎉😴🌙'].map((char) => ({ char, name: char }))
    const withEmoji = await stickers((await addWumpus(server.store, { name: 'Emoji Wumpus', emoji }))._id)
    const byPlatform = Object.fromEntries(withEmoji.map((entry) => [entry.platform, entry.emoji.join('')]))
    expect(byPlatform).toEqual({
      discord: '👋',
      'discord-emoji': '',
      telegram: '👋🎉😴🌙',
      'telegram-emoji': '👋🎉😴🌙',
      whatsapp: '👋🎉😴',
      signal: '👋',
      line: '',
      slack: '',
    })
    // Without emoji of its own, a sticker still goes with one where the app requires it.
    const bare = await stickers((await addWumpus(server.store, { name: 'Bare Wumpus' }))._id)
    expect(bare.find((entry) => entry.platform === 'whatsapp')!.emoji).toEqual(['🙂'])
  })

  it('lists one ready file per platform after publishing, each fit for its platform and served under a clear name', async () => {
    const id = await publish('Party Wumpus')
    await server.derivedMedia.idle()
    const list = await stickers(id)
    expect(list.map((s) => [s.platform, s.status])).toEqual(PLATFORMS.map((p) => [p, 'ready']))
    expect(list.map((s) => s.label)).toEqual([
      'Discord',
      'Discord emoji',
      'Telegram',
      'Telegram emoji',
      'WhatsApp',
      'Signal',
      'LINE',
      'Slack',
    ])
    for (const sticker of list) {
      const res = await fetch(server.url + sticker.url)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe(sticker.contentType)
      expect(res.headers.get('cache-control')).toContain('immutable')
      expect(res.headers.get('etag')).toBeTruthy()
      expect(res.headers.get('content-disposition')).toContain(`filename="${sticker.fileName}"`)
      const bytes = new Uint8Array(await res.arrayBuffer())
      expect(bytes.length).toBe(sticker.bytes)
      // The stored facts are what an independent read of the bytes finds, and the platform's rules hold.
      const check = checkStickerFile(sticker.platform, bytes)
      expect(check.problems, sticker.platform).toEqual([])
      expect([check.facts!.width, check.facts!.height, check.facts!.frames]).toEqual([sticker.width, sticker.height, sticker.frames])
    }
    expect(list.map((s) => s.fileName)).toEqual([
      'party-wumpus.discord.png',
      'party-wumpus.discord-emoji.gif',
      'party-wumpus.telegram.tgs',
      'party-wumpus.telegram-emoji.tgs',
      'party-wumpus.whatsapp.webp',
      'party-wumpus.signal.png',
      'party-wumpus.line.png',
      'party-wumpus.slack.gif',
    ])
    expect(list.find((s) => s.platform === 'line')!.notes.join(' ')).toMatch(/Plays 2 times/)
    // The emoji are emoji-sized.
    expect(list.filter((s) => s.platform.endsWith('-emoji')).map((s) => [s.platform, s.contentType, s.width, s.height])).toEqual([
      ['discord-emoji', 'image/gif', 128, 128],
      ['telegram-emoji', 'application/x-tgsticker', 100, 100],
    ])
  })

  it('gives cards their WebP previews in the list and the detail once made', async () => {
    const id = await publish('Preview Wumpus')
    expect(wumpusSchema.parse(await (await fetch(`${server.url}/api/wumpus/${id}`)).json()).preview).toBeUndefined()
    await server.derivedMedia.idle()
    const detail = wumpusSchema.parse(await (await fetch(`${server.url}/api/wumpus/${id}`)).json())
    const listed = wumpusListSchema.parse(await (await fetch(`${server.url}/api/wumpuses`)).json()).find((w) => w._id === id)
    expect(listed?.preview).toEqual(detail.preview)
    const read = async (url: string) => sharp(Buffer.from(await (await fetch(server.url + url)).arrayBuffer()), { pages: -1 }).metadata()
    const small = await read(detail.preview!.webp)
    const large = await read(detail.preview!.webp2x)
    const still = await read(detail.preview!.still)
    expect([small.format, small.width, small.pageHeight, small.pages]).toEqual(['webp', 300, 300, 40]) // 2 s at 20 fps
    expect([large.width, large.pageHeight]).toEqual([600, 600])
    expect([still.width, still.pages ?? 1]).toEqual([600, 1])
  })

  it('makes them again when the Lottie is replaced, and removes the old ones', async () => {
    const id = await publish('Changing Wumpus')
    await server.derivedMedia.idle()
    const before = await stickers(id)
    const lottie = await upload('lottie', lottieBytes({ op: 45 }), 'new.json')
    expect((await call('PUT', `/api/wumpuses/${id}`, { files: { lottie } })).status).toBe(200)
    // At once: nothing stale is offered, and the old files are gone.
    expect((await stickers(id)).every((s) => s.status === 'pending')).toBe(true)
    expect((await fetch(server.url + before[0]!.url)).status).toBe(404)
    await server.derivedMedia.idle()
    const after = await stickers(id)
    expect(after.every((s) => s.status === 'ready')).toBe(true)
    expect(after.find((s) => s.platform === 'discord')!.durationMs).toBe(1500)

    // A name change alone keeps them.
    expect((await call('PUT', `/api/wumpuses/${id}`, { name: 'Renamed Wumpus' })).status).toBe(200)
    expect(await stickers(id)).toEqual(after)
  })

  it('removes them with the animation', async () => {
    const id = await publish('Doomed Wumpus')
    await server.derivedMedia.idle()
    const urls = [
      ...(await stickers(id)).map((s) => s.url!),
      ...Object.values(wumpusSchema.parse(await (await fetch(`${server.url}/api/wumpus/${id}`)).json()).preview!),
    ]
    expect((await call('DELETE', `/api/wumpus/${id}`)).status).toBe(200)
    for (const url of urls) expect((await fetch(server.url + url)).status).toBe(404)
  })

  it('says why a platform is missing: Telegram allows 3 s, for stickers and emoji', async () => {
    const id = await publish('Long Wumpus', lottieBytes({ op: 120 }))
    await server.derivedMedia.idle()
    const list = await stickers(id)
    const telegram = list.find((s) => s.platform === 'telegram')!
    expect(telegram).toMatchObject({ status: 'absent', url: null, bytes: null })
    expect(telegram.notes.join(' ')).toMatch(/runs 4 s; Telegram allows 3 s/)
    expect(list.find((s) => s.platform === 'telegram-emoji')).toMatchObject({
      status: 'absent',
      url: null,
      notes: ['It runs 4 s; Telegram emoji allows 3 s'],
    })
    // Discord emoji have no length limit.
    expect(list.find((s) => s.platform === 'discord-emoji')!.status).toBe('ready')
  })

  it('answers 404 in the error shape for unknown and malformed ids', async () => {
    for (const id of ['abcdefabcdefabcdefabcdef', 'nope']) {
      const res = await fetch(`${server.url}/api/wumpus/${id}/stickers`)
      expect(res.status).toBe(404)
      expect(errorBody(await res.json()).error.code).toBe('NOT_FOUND')
    }
  })
})

describe('GET /api/wumpus/{id}/colours', () => {
  it('lists the colour slots a remix can change, with presets, revalidated by the Lottie', async () => {
    const id = await publish('Colourful Wumpus', lottieBytes())
    const res = await fetch(`${server.url}${wumpusColoursPath(id)}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-cache')
    const choices = colourChoicesSchema.parse(await res.json())
    // The fixture is one ball filled with rgb(0.35, 0.4, 0.95).
    expect(choices.slots).toEqual([{ id: '5966f2', colour: '#5966f2', share: 1 }])
    expect(choices.presets.map((preset) => preset.id)).toEqual(['night', 'pastel', 'mono'])
    for (const preset of choices.presets) expect(Object.keys(preset.colours)).toEqual(['5966f2'])

    const again = await fetch(`${server.url}${wumpusColoursPath(id)}`, { headers: { 'If-None-Match': res.headers.get('etag')! } })
    expect(again.status).toBe(304)
  })

  it('answers the slots stored with the animation, read in the render worker after the publish', async () => {
    const id = await publish('Stored Wumpus', lottieBytes())
    await server.colourSlots.idle()
    const record = (await server.store.wumpuses.get(id))!
    expect(record.colourSlots).toMatchObject({ source: record.files.lottie.id, slots: [{ id: '5966f2', colour: '#5966f2', share: 1 }] })
    // What the endpoint answers is what is stored (changed by hand here), not the file read again.
    const slots = [{ id: 'abcdef', colour: '#abcdef', share: 1 }]
    await server.store.wumpuses.setColourSlots(id, { ...record.colourSlots!, slots })
    const choices = colourChoicesSchema.parse(await (await fetch(`${server.url}${wumpusColoursPath(id)}`)).json())
    expect(choices.slots).toEqual(slots)
    expect(Object.keys(choices.presets[0]!.colours)).toEqual(['abcdef'])
  })

  it('is NOT_FOUND for an unknown animation', async () => {
    const res = await fetch(`${server.url}${wumpusColoursPath('0123456789abcdef01234567')}`)
    expect(res.status).toBe(404)
    expect(errorBody(await res.json()).error.code).toBe('NOT_FOUND')
  })
})
