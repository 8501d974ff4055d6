import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { activityListSchema } from '../../../contract/audit'
import { LINK_HEADER, TOTAL_COUNT_HEADER, WHATSAPP_TRAY_MAX_BYTES } from '../../../contract/limits'
import { packDetailSchema, packListSchema, packSchema, type PackDetail } from '../../../contract/pack'
import { PLATFORMS, PLATFORM_RULES, type Platform } from '../../../contract/stickers'
import { checkStickerFile } from '../media/exports/platform-check'
import { lottieBytes } from '../../test/fixtures/lottie'
import { fileStem } from '../services/file-names'
import type { DerivedFile, DerivedMedia, NewWumpus, WumpusRecord } from '../store/port'
import { errorBody } from '../../test/support/error-body'
import { addWumpus, startTestServer, type TestServer } from '../../test/support/test-server'
import { readZip } from '../../test/support/read-zip'

let server: TestServer
let admin: string
let user: string
const ADMIN = 'pack-admin@example.com'
/** One animation with previews and exports made by the real render worker; the others get copies of its files. */
let rendered: WumpusRecord

beforeAll(async () => {
  server = await startTestServer({}, { deriveMedia: true })
  await server.store.users.upsert(ADMIN, { user_name: 'Pack Admin', role: 'admin' })
  admin = await server.sessionToken(ADMIN)
  user = await server.sessionToken('pack-user@example.com')
  const record = await addWumpus(server.store, { name: 'Rendered Wumpus' })
  const lottie = await server.store.files.put({ bytes: lottieBytes(), contentType: 'application/json', filename: 'rendered.json' })
  await server.store.wumpuses.update(record._id, { files: { ...record.files, lottie: { id: lottie.id, filename: lottie.filename } } })
  await server.derivedMedia.refresh(record._id)
  rendered = (await server.store.wumpuses.get(record._id))!
  expect(rendered.derived?.exports.every((e) => e.file)).toBe(true)
}, 120_000)
afterAll(() => server.close())

/** An animation whose previews and exports are copies of the rendered one's (real files, fast); `without` platforms get none. */
async function stickerWumpus(
  name: string,
  options: { without?: Platform[]; still?: boolean } & Pick<NewWumpus, 'emoji' | 'keywords'> = {},
): Promise<WumpusRecord> {
  const record = await addWumpus(server.store, { name, emoji: options.emoji, keywords: options.keywords })
  const source = rendered.derived!
  const copy = async (file: DerivedFile): Promise<DerivedFile> => {
    const { bytes } = (await server.store.files.read(file.id))!
    const filename = file.filename.replace(fileStem(rendered.name), fileStem(name))
    const info = await server.store.files.put({ bytes, contentType: file.contentType, filename, owner: record.u_email, purpose: 'derived' })
    return { ...file, id: info.id, filename, ...(options.still ? { frames: 1 } : {}) }
  }
  const derived: DerivedMedia = {
    source: record.files.lottie.id,
    version: source.version,
    madeAt: new Date(),
    previews: {
      small: await copy(source.previews!.small),
      large: await copy(source.previews!.large),
      still: await copy(source.previews!.still),
    },
    exports: await Promise.all(
      source.exports.map(async (e) =>
        options.without?.includes(e.platform)
          ? { platform: e.platform, notes: ['Too long for this platform'] }
          : { ...e, file: await copy(e.file!) },
      ),
    ),
  }
  return (await server.store.wumpuses.setDerived(record._id, record.files.lottie.id, derived))!
}

async function stickerWumpuses(count: number, prefix: string): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < count; i++) ids.push((await stickerWumpus(`${prefix} ${i + 1}`))._id)
  return ids
}

/** As the admin unless a token is given ('' for anonymous). */
const call = (method: string, path: string, body?: unknown, token = admin) =>
  fetch(server.url + path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

async function createPack(body: Record<string, unknown>): Promise<string> {
  const res = await call('POST', '/api/packs', body)
  expect(res.status, await res.clone().text()).toBe(201)
  return packSchema.parse(await res.json()).id
}

async function detail(id: string): Promise<PackDetail> {
  const res = await fetch(`${server.url}/api/packs/${id}`)
  expect(res.status).toBe(200)
  return packDetailSchema.parse(await res.json())
}

async function activity() {
  return activityListSchema.parse(await (await call('GET', '/api/activity?limit=5')).json())
}

/** Width and height from a PNG's IHDR, read by hand. */
function pngSize(bytes: Uint8Array): [number, number] {
  expect(Buffer.from(bytes.subarray(0, 8)).toString('hex')).toBe('89504e470d0a1a0a')
  const view = new DataView(bytes.buffer, bytes.byteOffset)
  return [view.getUint32(16), view.getUint32(20)]
}

describe('packs: making, editing and deleting (admins), audited', () => {
  it('makes a pack in the given order with the first sticker as cover, lists and opens it', async () => {
    const ids = await stickerWumpuses(3, 'Ordered')
    const res = await call('POST', '/api/packs', {
      name: '  Cheerful Wumpuses ',
      description: 'Happy ones',
      wumpusIds: [ids[2], ids[0], ids[1]],
    })
    expect(res.status).toBe(201)
    const pack = packSchema.parse(await res.json())
    expect(pack).toMatchObject({
      name: 'Cheerful Wumpuses',
      description: 'Happy ones',
      wumpusIds: [ids[2], ids[0], ids[1]],
      coverWumpusId: ids[2],
      createdBy: ADMIN,
    })
    expect(pack.cover?._id).toBe(ids[2])
    expect(pack.cover?.preview).toBeDefined()

    const opened = await detail(pack.id)
    expect(opened.items.map((item) => item.name)).toEqual(['Ordered 3', 'Ordered 1', 'Ordered 2'])
    expect(opened.downloads.map((d) => [d.platform, d.fits, d.stickers, d.missing])).toEqual(PLATFORMS.map((p) => [p, p !== 'line', 3, 0]))
    expect(opened.downloads.find((d) => d.platform === 'whatsapp')).toMatchObject({
      url: `/api/packs/${pack.id}/download/whatsapp`,
      fileName: 'cheerful-wumpuses.whatsapp.zip',
      parts: [],
    })
    expect(opened.downloads.find((d) => d.platform === 'line')).toMatchObject({
      fits: false,
      message: 'LINE sets have 8, 16 or 24 stickers; this pack has 3.',
      notes: [],
    })

    const [entry] = await activity()
    expect(entry).toMatchObject({ actor: ADMIN, action: 'pack.create', target: { type: 'pack', id: pack.id, name: 'Cheerful Wumpuses' } })
    expect(entry!.changes).toContainEqual({ field: 'stickers', to: '3: Ordered 3, Ordered 1, Ordered 2' })
    expect(entry!.changes).toContainEqual({ field: 'cover', to: 'Ordered 3' })
  })

  it('lists packs newest first, paged with X-Total-Count and Link', async () => {
    const [id] = await stickerWumpuses(1, 'Listed')
    const made = [await createPack({ name: 'Page Pack A', wumpusIds: [id] }), await createPack({ name: 'Page Pack B', wumpusIds: [id] })]
    const first = await fetch(`${server.url}/api/packs?limit=1`)
    expect(first.status).toBe(200)
    const total = Number(first.headers.get(TOTAL_COUNT_HEADER))
    expect(total).toBeGreaterThanOrEqual(2)
    expect(packListSchema.parse(await first.json()).map((p) => p.id)).toEqual([made[1]])
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.get(LINK_HEADER) ?? '')![1]!
    const second = packListSchema.parse(await (await fetch(server.url + next)).json())
    expect(second.map((p) => p.id)).toEqual([made[0]])
    expect(second[0]!.cover?.name).toBe('Listed 1')
    expect((await fetch(`${server.url}/api/packs?cursor=nope!`)).status).toBe(400)
    expect((await fetch(`${server.url}/api/packs?limit=0`)).status).toBe(400)
  })

  it('refuses unknown stickers, repeats, empty and oversized lists, a cover outside the pack and unknown fields, in the error shape', async () => {
    const [id] = await stickerWumpuses(1, 'Valid')
    const unknown = 'abcdefabcdefabcdefabcdef'
    const refused = async (body: unknown, pattern: RegExp) => {
      const res = await call('POST', '/api/packs', body)
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      const error = errorBody(await res.json()).error
      expect(`${error.message} ${JSON.stringify(error.details)}`).toMatch(pattern)
      return error
    }
    const error = await refused({ name: 'Ghost Pack', wumpusIds: [id, unknown] }, /One sticker does not exist/)
    expect(error.details).toEqual({ field: 'wumpusIds', unknown: [unknown] })
    await refused({ name: 'Twice Pack', wumpusIds: [id, id] }, /only once/)
    await refused({ name: 'Empty Pack', wumpusIds: [] }, /at least one sticker/)
    await refused({ name: 'Huge Pack', wumpusIds: Array.from({ length: 201 }, (_, i) => i.toString(16).padStart(24, '0')) }, /at most 200/)
    await refused({ name: 'Cover Pack', wumpusIds: [id], coverWumpusId: unknown }, /cover must be one of/)
    await refused({ name: 'x', wumpusIds: [id] }, /at least 3 characters/)
    await refused({ name: 'Bad Id Pack', wumpusIds: ['nope'] }, /Not a valid id/)
    await refused({ name: 'Extra Pack', wumpusIds: [id], role: 'admin' }, /not valid/)
    expect(((await call('GET', '/api/packs?limit=100').then((res) => res.json())) as { name: string }[]).map((p) => p.name)).not.toContain(
      'Ghost Pack',
    )
  })

  it('lets only verified admins write', async () => {
    const [id] = await stickerWumpuses(1, 'Guarded')
    const body = { name: 'Sneaky Pack', wumpusIds: [id] }
    expect((await call('POST', '/api/packs', body, '')).status).toBe(401)
    expect((await call('POST', '/api/packs', body, user)).status).toBe(403)
    const unverified = await server.sessionToken(ADMIN, { emailVerified: false })
    expect((await call('POST', '/api/packs', body, unverified)).status).toBe(403)
    const pack = await createPack({ name: 'Guarded Pack', wumpusIds: [id] })
    expect((await call('PUT', `/api/packs/${pack}`, { name: 'Taken Pack' }, user)).status).toBe(403)
    expect((await call('DELETE', `/api/packs/${pack}`, undefined, user)).status).toBe(403)
    expect((await detail(pack)).name).toBe('Guarded Pack')
  })

  it('adds, reorders and removes stickers and changes the cover with one PUT, audited with what changed', async () => {
    const ids = await stickerWumpuses(4, 'Edited')
    const pack = await createPack({ name: 'Edit Pack', wumpusIds: [ids[0], ids[1]] })
    const res = await call('PUT', `/api/packs/${pack}`, { name: 'Edited Pack', wumpusIds: [ids[3], ids[1], ids[2]], coverWumpusId: ids[2] })
    expect(res.status).toBe(200)
    expect(packSchema.parse(await res.json())).toMatchObject({
      name: 'Edited Pack',
      wumpusIds: [ids[3], ids[1], ids[2]],
      coverWumpusId: ids[2],
    })
    const [entry] = await activity()
    expect(entry).toMatchObject({ action: 'pack.edit', target: { type: 'pack', id: pack, name: 'Edited Pack' } })
    expect(entry!.changes).toEqual([
      { field: 'name', from: 'Edit Pack', to: 'Edited Pack' },
      { field: 'stickers', from: '2: Edited 1, Edited 2', to: '3: Edited 4, Edited 2, Edited 3' },
      { field: 'cover', from: 'Edited 1', to: 'Edited 3' },
    ])
    // Nothing changed: nothing recorded.
    expect((await call('PUT', `/api/packs/${pack}`, { name: 'Edited Pack' })).status).toBe(200)
    expect((await activity())[0]!.id).toBe(entry!.id)
    // A cover outside the stored stickers, unknown stickers, unknown packs.
    expect((await call('PUT', `/api/packs/${pack}`, { coverWumpusId: ids[0] })).status).toBe(400)
    expect((await call('PUT', `/api/packs/${pack}`, { wumpusIds: ['abcdefabcdefabcdefabcdef'] })).status).toBe(400)
    expect((await call('PUT', '/api/packs/abcdefabcdefabcdefabcdef', { name: 'Nobody Pack' })).status).toBe(404)
    expect((await call('PUT', '/api/packs/nope', { name: 'Nobody Pack' })).status).toBe(404)
    expect((await detail(pack)).items.map((item) => item.name)).toEqual(['Edited 4', 'Edited 2', 'Edited 3'])
  })

  it('deletes a pack (audited) and drops deleted animations from packs', async () => {
    const ids = await stickerWumpuses(2, 'Dropped')
    const pack = await createPack({ name: 'Dropping Pack', wumpusIds: ids, coverWumpusId: ids[1] })
    expect((await call('DELETE', `/api/wumpus/${ids[1]}`)).status).toBe(200)
    const opened = await detail(pack)
    expect(opened).toMatchObject({ wumpusIds: [ids[0]], coverWumpusId: ids[0] })
    expect(opened.items.map((item) => item._id)).toEqual([ids[0]])

    expect(await (await call('DELETE', `/api/packs/${pack}`)).json()).toEqual({ deletedCount: 1 })
    expect((await activity())[0]).toMatchObject({ action: 'pack.delete', target: { type: 'pack', id: pack, name: 'Dropping Pack' } })
    expect(await (await call('DELETE', `/api/packs/${pack}`)).json()).toEqual({ deletedCount: 0 })
    const gone = await fetch(`${server.url}/api/packs/${pack}`)
    expect(gone.status).toBe(404)
    expect(errorBody(await gone.json()).error.code).toBe('NOT_FOUND')
  })
})

describe('packs: one ZIP per platform', () => {
  let pack: string
  let ids: string[]

  // Four emoji and a keyword on each but the last, which has none of its own.
  const emoji = [
    { char: '👋', name: 'waving hand', shortcode: 'wave' },
    { char: '❤️', name: 'red heart', shortcode: 'heart' },
    { char: '🎉', name: 'party popper', shortcode: 'tada' },
    { char: '✨', name: 'sparkles', shortcode: 'sparkles' },
  ]
  const text = (entries: Awaited<ReturnType<typeof readZip>>, name: string) =>
    new TextDecoder().decode(entries.find((entry) => entry.name === name)!.bytes)

  beforeAll(async () => {
    ids = []
    for (let i = 0; i < 11; i++) ids.push((await stickerWumpus(`Zipped ${i + 1}`, { emoji, keywords: ['hi there'] }))._id)
    ids.push((await stickerWumpus('Zipped Long', { without: ['telegram'] }))._id)
    // The second is someone else's work, shared under CC BY: its credit and licence travel with it.
    await server.store.wumpuses.update(ids[1]!, { credit: 'Ana Lima', licence: 'CC-BY-4.0' })
    pack = await createPack({ name: 'Zipped Wumpuses', description: 'Twelve of them', wumpusIds: ids, coverWumpusId: ids[4] })
  })

  for (const platform of PLATFORMS) {
    it(`${platform}: every sticker in pack order, each fit for ${PLATFORM_RULES[platform].label}, streamed with its size and a clear name`, async () => {
      const res = await fetch(`${server.url}/api/packs/${pack}/download/${platform}`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/zip')
      expect(res.headers.get('content-disposition')).toContain(`attachment; filename="zipped-wumpuses.${platform}.zip"`)
      const bytes = new Uint8Array(await res.arrayBuffer())
      expect(bytes.length).toBe(Number(res.headers.get('content-length')))
      const entries = await readZip(bytes)
      const stickers = entries.filter((entry) => entry.name.endsWith(PLATFORM_RULES[platform].extension))
      // Telegram has no file for the last; LINE takes a set of 8 and lists the other 4.
      const count = platform === 'telegram' ? 11 : platform === 'line' ? 8 : 12
      const names = Array.from({ length: 12 }, (_, i) => `Zipped ${i + 1}`)
        .with(11, 'Zipped Long')
        .slice(0, count)
      expect(stickers.map((entry) => entry.name)).toEqual(
        names.map(
          (name, i) => `${String(i + 1).padStart(String(count).length, '0')}-${fileStem(name)}.${PLATFORM_RULES[platform].extension}`,
        ),
      )
      for (const entry of stickers) {
        expect(entry.method).toBe(0)
        expect(checkStickerFile(platform, entry.bytes).problems, entry.name).toEqual([])
      }
      const readme = new TextDecoder().decode(entries.find((entry) => entry.name === 'README.txt')!.bytes)
      const what = platform.endsWith('-emoji') ? PLATFORM_RULES[platform].label : `${PLATFORM_RULES[platform].label} stickers`
      expect(readme).toContain(`Zipped Wumpuses: ${what} from Wumpus Gallery`)
      // Who made each sticker and under which licence, whatever the app.
      expect(readme).toContain(
        [
          'Credits and licences:',
          '  Zipped 1: By Maker, licence This gallery only',
          '  Zipped 2: By Ana Lima, licence CC BY 4.0 (credit the maker): https://creativecommons.org/licenses/by/4.0/',
        ].join('\r\n'),
      )
      expect(readme).toContain('Stickers under "This gallery only" are shared for your own chats')
      expect(readme).toContain('Stickers under CC BY or CC BY-SA may be reused and changed, crediting their maker')
      if (platform === 'telegram') expect(readme).toMatch(/Left out \(no Telegram file\):\r\n {2}Zipped Long: Too long for this platform/)
      else if (platform !== 'line') expect(readme).not.toContain('Left out')
      if (platform === 'line') {
        expect(readme).toContain('LINE sets have 8, 16 or 24 stickers: this ZIP is a set of 8.')
        expect(readme).toContain('Left out (no LINE set holds them):\r\n  Zipped 9\r\n  Zipped 10\r\n  Zipped 11\r\n  Zipped Long\r\n')
      } else expect(readme).not.toContain('holds them')
      expect(readme).not.toContain('Part 1')
      if (platform === 'discord-emoji') expect(readme).toContain('Server Settings > Emoji > Upload Emoji')
      if (platform === 'telegram-emoji') expect(readme).toContain('send /newemojipack (animated) to @Stickers')

      const stickerNames = stickers.map((entry) => entry.name)
      // Each sticker's emoji as the app takes them: the first ones, or 🙂 for a sticker without any.
      const taken = PLATFORM_RULES[platform].emoji
      const own = emoji.map((e) => e.char).slice(0, taken)
      const emojiOf = (i: number) => (taken === 0 ? [] : names[i] === 'Zipped Long' ? ['🙂'] : own)
      // Discord: each sticker's name (2 to 30 characters) and related emoji, with the emoji's Discord name as its tag.
      if (platform === 'discord') expect(readme).toContain(`  ${stickerNames[0]}  “Zipped 1”  👋 (wave)\r\n`)
      else if (taken > 0) expect(readme).toContain(`  ${stickerNames[0]}  ${own.join(' ')}\r\n`)

      if (platform === 'whatsapp') {
        const tray = entries.find((entry) => entry.name === 'tray.png')!
        expect(pngSize(tray.bytes)).toEqual([96, 96])
        expect(tray.bytes.length).toBeLessThanOrEqual(WHATSAPP_TRAY_MAX_BYTES)
        expect(text(entries, 'title.txt')).toBe('Zipped Wumpuses')
        expect(entries.map((entry) => entry.name).slice(12)).toEqual(['tray.png', 'title.txt', 'author.txt', 'contents.json', 'README.txt'])
        // WhatsApp's own sample layout: the pack, its tray image in the ZIP, each sticker with 1 to 3 emoji and its text alternative.
        const contents = JSON.parse(text(entries, 'contents.json')) as {
          sticker_packs: Array<{
            identifier: string
            name: string
            publisher: string
            tray_image_file: string
            image_data_version: string
            animated_sticker_pack: boolean
            stickers: Array<{ image_file: string; emojis: string[]; accessibility_text: string }>
          }>
        }
        expect(contents.sticker_packs).toHaveLength(1)
        const [listed] = contents.sticker_packs
        expect(listed).toMatchObject({
          identifier: pack,
          name: 'Zipped Wumpuses',
          publisher: 'Wumpus Gallery',
          animated_sticker_pack: true,
        })
        expect(entries.some((entry) => entry.name === listed!.tray_image_file)).toBe(true)
        expect(listed!.image_data_version).toMatch(/^\d+$/)
        expect(listed!.stickers.map((sticker) => sticker.image_file)).toEqual(stickerNames)
        for (const sticker of listed!.stickers) expect(sticker.emojis.length).toBeGreaterThanOrEqual(1)
        expect(listed!.stickers.map((sticker) => sticker.emojis)).toEqual(names.map((_, i) => emojiOf(i)))
        expect(listed!.stickers[0]!.accessibility_text).toBe('Zipped 1: A test animation for the gallery')
      } else if (platform === 'telegram' || platform === 'telegram-emoji') {
        // Every .tgs of the ZIP, in sending order, with its emoji and keywords (the Bot API's InputSticker fields).
        const list = JSON.parse(text(entries, 'stickers.json')) as {
          title: string
          sticker_type: string
          stickers: Array<{ sticker: string; format: string; emoji_list: string[]; keywords: string[]; credit: string; licence: string }>
        }
        expect(list.title).toBe('Zipped Wumpuses')
        expect(list.sticker_type).toBe(platform === 'telegram' ? 'regular' : 'custom_emoji')
        expect(list.stickers.map((sticker) => sticker.sticker)).toEqual(stickerNames)
        expect(list.stickers.map((sticker) => sticker.emoji_list)).toEqual(names.map((_, i) => emojiOf(i)))
        expect(list.stickers[0]).toMatchObject({ format: 'animated', keywords: ['hi there'], credit: 'Maker', licence: 'gallery-only' })
        expect(list.stickers[1]).toMatchObject({ credit: 'Ana Lima', licence: 'CC-BY-4.0' })
        expect(entries.map((entry) => entry.name).slice(count)).toEqual(['stickers.json', 'README.txt'])
      } else if (platform === 'signal' || platform === 'discord' || platform === 'discord-emoji') {
        const rows = text(entries, 'emoji.txt').trimEnd().split('\r\n')
        const tags =
          platform === 'discord-emoji'
            ? names.map((name) => `:${name.toLowerCase().replace(' ', '_')}:`)
            : names.map((_, i) => emojiOf(i).join(''))
        expect(rows).toEqual(stickerNames.map((name, i) => `${name}\t${tags[i]}`))
        if (platform === 'discord') {
          // Create Guild Sticker's fields: the tag is the Discord name of the emoji (🙂 is slight_smile).
          expect(JSON.parse(text(entries, 'stickers.json'))).toEqual({
            stickers: stickerNames.map((file, i) => ({
              file,
              name: names[i],
              tags: names[i] === 'Zipped Long' ? 'slight_smile' : 'wave',
              emoji: emojiOf(i)[0],
              credit: i === 1 ? 'Ana Lima' : 'Maker',
              licence: i === 1 ? 'CC-BY-4.0' : 'gallery-only',
            })),
          })
          expect(entries.map((entry) => entry.name).slice(count)).toEqual(['emoji.txt', 'stickers.json', 'README.txt'])
        } else expect(entries.map((entry) => entry.name).slice(count)).toEqual(['emoji.txt', 'README.txt'])
      } else if (platform === 'line') {
        expect(pngSize(entries.find((entry) => entry.name === 'main.png')!.bytes)).toEqual([240, 240])
        expect(pngSize(entries.find((entry) => entry.name === 'tab.png')!.bytes)).toEqual([96, 74])
        expect(readme).toContain('main.png as its main image and tab.png as its chat tab image')
        expect(entries.map((entry) => entry.name).slice(count)).toEqual(['main.png', 'tab.png', 'README.txt'])
      } else {
        expect(entries.map((entry) => entry.name).slice(count)).toEqual(['README.txt'])
      }
    })
  }

  it('wastickers: the WhatsApp pack under the name sticker maker apps open, the same files, read by unzip', async () => {
    const whatsapp = (await detail(pack)).downloads.find((d) => d.platform === 'whatsapp')!
    expect(whatsapp.wastickers).toEqual({ url: `/api/packs/${pack}/download/wastickers`, fileName: 'zipped-wumpuses.wastickers' })
    expect((await detail(pack)).downloads.filter((d) => d.wastickers !== null).map((d) => d.platform)).toEqual(['whatsapp'])
    const res = await fetch(`${server.url}${whatsapp.wastickers!.url}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/octet-stream')
    expect(res.headers.get('content-disposition')).toContain('attachment; filename="zipped-wumpuses.wastickers"')
    const bytes = new Uint8Array(await res.arrayBuffer())
    const zip = await readZip(new Uint8Array(await (await fetch(`${server.url}${whatsapp.url}`)).arrayBuffer()))
    expect((await readZip(bytes)).map((entry) => [entry.name, entry.bytes])).toEqual(zip.map((entry) => [entry.name, entry.bytes]))
    // An independent reader lists the same entries: the stickers, tray.png, title.txt and author.txt.
    const file = join(mkdtempSync(join(tmpdir(), 'wastickers-')), 'pack.wastickers')
    writeFileSync(file, bytes)
    // Not execFileSync: the server answers in this process, and its event loop must keep running.
    const listed = (await promisify(execFile)('unzip', ['-Z1', file], { encoding: 'utf8' })).stdout.trim().split('\n')
    expect(listed).toEqual(zip.map((entry) => entry.name))
    expect(listed).toEqual(expect.arrayContaining(['tray.png', 'title.txt', 'author.txt', '01-zipped-1.whatsapp.webp']))
  })

  it("names a personal pack's maker as its WhatsApp publisher to them and admins, the gallery to anyone else", async () => {
    const maker = 'pack-maker@example.com'
    await server.store.users.upsert(maker, { user_name: 'Grace Hopper' })
    const personal = await server.store.packs.insert({
      name: 'Grace’s Pack',
      description: '',
      wumpusIds: ids,
      createdBy: maker,
      visibility: 'link',
    })
    const publisherAs = async (token?: string) => {
      const res = await fetch(`${server.url}/api/packs/${personal.id}/download/whatsapp`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      })
      expect(res.status).toBe(200)
      const entries = await readZip(new Uint8Array(await res.arrayBuffer()))
      const contents = JSON.parse(text(entries, 'contents.json')) as { sticker_packs: Array<{ publisher: string }> }
      expect(contents.sticker_packs[0]!.publisher).toBe(text(entries, 'author.txt'))
      return text(entries, 'author.txt')
    }
    expect(await publisherAs(await server.sessionToken(maker))).toBe('Grace Hopper')
    expect(await publisherAs(admin)).toBe('Grace Hopper')
    // Anyone with the link downloads it, without learning whose it is.
    expect(await publisherAs(user)).toBe('Wumpus Gallery')
    expect(await publisherAs()).toBe('Wumpus Gallery')
    await server.store.packs.delete(personal.id)
  })

  it("gives a personal pack's maker and admins ZIP links that download it as its maker has it, without a bearer (a browser's download link)", async () => {
    const maker = 'link-maker@example.com'
    await server.store.users.upsert(maker, { user_name: 'Ada Lovelace' })
    const makerToken = await server.sessionToken(maker)
    const insert = (visibility: 'private' | 'link') =>
      server.store.packs.insert({ name: 'Ada’s Pack', description: '', wumpusIds: ids, createdBy: maker, visibility })
    const zipUrl = async (id: string, token?: string) => {
      const res = await fetch(`${server.url}/api/packs/${id}`, { headers: token ? { authorization: `Bearer ${token}` } : {} })
      expect(res.status).toBe(200)
      return packDetailSchema.parse(await res.json()).downloads.find((d) => d.platform === 'whatsapp')!.url
    }
    // The link as the page shows it, followed as a plain <a href download> does: no Authorization header.
    const authorOf = async (url: string) => {
      const res = await fetch(`${server.url}${url}`)
      expect(res.status).toBe(200)
      return text(await readZip(new Uint8Array(await res.arrayBuffer())), 'author.txt')
    }

    const shared = await insert('link')
    expect(await authorOf(await zipUrl(shared.id, makerToken))).toBe('Ada Lovelace')
    expect(await authorOf(await zipUrl(shared.id, admin))).toBe('Ada Lovelace')
    // Anyone else with the link is given a plain URL: the gallery is the publisher.
    expect(await zipUrl(shared.id, user)).toBe(`/api/packs/${shared.id}/download/whatsapp`)
    expect(await authorOf(await zipUrl(shared.id))).toBe('Wumpus Gallery')

    // A private pack: its maker's link downloads it; without the key, or with another pack's, it is unknown.
    const hidden = await insert('private')
    const keyed = await zipUrl(hidden.id, makerToken)
    expect(await authorOf(keyed)).toBe('Ada Lovelace')
    const bare = `/api/packs/${hidden.id}/download/whatsapp`
    expect((await fetch(`${server.url}${bare}`)).status).toBe(404)
    const otherKey = new URL(await zipUrl(shared.id, makerToken), server.url).searchParams.get('key')!
    expect((await fetch(`${server.url}${bare}?key=${otherKey}`)).status).toBe(404)
    await server.store.packs.delete(shared.id)
    await server.store.packs.delete(hidden.id)
  })

  it('says on the pack what each ZIP holds, and counts a ZIP as a download of its stickers', async () => {
    const opened = await detail(pack)
    const telegram = opened.downloads.find((d) => d.platform === 'telegram')!
    expect(telegram).toMatchObject({ fits: true, stickers: 11, missing: 1, message: null })
    const whatsapp = opened.downloads.find((d) => d.platform === 'whatsapp')!
    const file = rendered.derived!.exports.find((e) => e.platform === 'whatsapp')!.file!
    expect(whatsapp.bytes).toBe(12 * file.bytes)

    // The ZIPs above came from one visitor: each of their stickers counted once.
    await server.downloads.flush()
    expect((await server.store.wumpuses.get(ids[0]!))!.downloads).toBe(1)
    expect((await server.store.wumpuses.get(ids[11]!))!.downloads).toBe(1)
  })

  it('refuses WhatsApp packs of fewer than 3 animated or 3 still stickers, with the reason, before streaming', async () => {
    const notFit = async (id: string, message: string) => {
      const res = await fetch(`${server.url}/api/packs/${id}/download/whatsapp`)
      expect(res.status).toBe(422)
      expect(res.headers.get('content-disposition')).toBeNull()
      expect(errorBody(await res.json()).error).toMatchObject({ code: 'PACK_NOT_FIT', message })
      expect((await detail(id)).downloads.find((d) => d.platform === 'whatsapp')).toMatchObject({ fits: false, message, parts: [] })
    }
    const two = await createPack({ name: 'Two Pack', wumpusIds: ids.slice(0, 2) })
    await notFit(two, 'WhatsApp packs need 3 to 30 stickers; this pack has 2.')
    // Other platforms take it.
    expect((await fetch(`${server.url}/api/packs/${two}/download/signal`)).status).toBe(200)

    const stills = [(await stickerWumpus('Still One', { still: true }))._id, (await stickerWumpus('Still Two', { still: true }))._id]
    await notFit(
      await createPack({ name: 'Mixed Pair Pack', wumpusIds: [...ids.slice(0, 2), ...stills] }),
      'WhatsApp packs need at least 3 stickers, never still and animated together; this pack has 2 animated and 2 still.',
    )

    const missing = await stickerWumpus('No WhatsApp', { without: ['whatsapp'] })
    await notFit(
      await createPack({ name: 'Gap Pack', wumpusIds: [...ids.slice(0, 2), missing._id] }),
      'WhatsApp packs need 3 to 30 stickers; 2 of this pack’s 3 have a WhatsApp file.',
    )
  })

  it('leaves a still out of an animated WhatsApp pack (one ZIP, the still named), where it used to refuse the pack', async () => {
    const still = await stickerWumpus('Still Wumpus', { still: true })
    const id = await createPack({ name: 'Still Pack', wumpusIds: [...ids.slice(0, 3), still._id] })
    const whatsapp = (await detail(id)).downloads.find((d) => d.platform === 'whatsapp')!
    const note = '1 still sticker is left out, as WhatsApp packs need at least 3 and never mix still and animated: “Still Wumpus”.'
    expect(whatsapp).toMatchObject({ fits: true, message: null, stickers: 3, parts: [], notes: [note] })
    const res = await fetch(server.url + whatsapp.url)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toContain('filename="still-pack.whatsapp.zip"')
    const entries = await readZip(new Uint8Array(await res.arrayBuffer()))
    expect(entries.filter((entry) => entry.name.endsWith('.webp')).map((entry) => entry.name)).toEqual([
      '1-zipped-1.whatsapp.webp',
      '2-zipped-2.whatsapp.webp',
      '3-zipped-3.whatsapp.webp',
    ])
    const readme = text(entries, 'README.txt')
    expect(readme).toContain('Left out (no WhatsApp pack holds them):\r\n  Still Wumpus\r\n')
    expect(readme).toContain(note)
  })

  it('refuses a ZIP none of whose stickers has the platform file, unknown platforms and unknown packs', async () => {
    const none = await stickerWumpus('Never Telegram', { without: ['telegram'] })
    const id = await createPack({ name: 'No Telegram Pack', wumpusIds: [none._id] })
    const res = await fetch(`${server.url}/api/packs/${id}/download/telegram`)
    expect(res.status).toBe(422)
    expect(errorBody(await res.json()).error.message).toBe('None of this pack’s stickers has a Telegram file yet.')
    for (const unknown of ['myspace', 'discord-', 'Discord-Emoji']) {
      const refused = await fetch(`${server.url}/api/packs/${id}/download/${unknown}`)
      expect(refused.status).toBe(404)
      expect(errorBody(await refused.json()).error.message).toBe(
        'No such platform: use discord, discord-emoji, telegram, telegram-emoji, whatsapp, signal, line, slack, wastickers, misskey, mastodon, pleroma',
      )
    }
    expect((await fetch(`${server.url}/api/packs/abcdefabcdefabcdefabcdef/download/slack`)).status).toBe(404)
    expect((await fetch(`${server.url}/api/packs/nope/download/slack`)).status).toBe(404)
  })
})

describe('packs: split within each app’s rules', () => {
  let animated: string[]
  let stills: string[]
  const read = (entries: Awaited<ReturnType<typeof readZip>>, name: string) =>
    new TextDecoder().decode(entries.find((entry) => entry.name === name)!.bytes)
  const fileBytes = (platform: Platform) => rendered.derived!.exports.find((e) => e.platform === platform)!.file!.bytes

  async function zipOf(url: string, fileName: string) {
    const res = await fetch(server.url + url)
    expect(res.status, url).toBe(200)
    expect(res.headers.get('content-disposition')).toContain(`attachment; filename="${fileName}"`)
    return readZip(new Uint8Array(await res.arrayBuffer()))
  }

  async function refused(path: string, status: number, message: RegExp) {
    const res = await fetch(server.url + path)
    expect(res.status, path).toBe(status)
    expect(res.headers.get('content-disposition')).toBeNull()
    expect(errorBody(await res.json()).error.message).toMatch(message)
  }

  beforeAll(async () => {
    animated = await stickerWumpuses(40, 'Split')
    stills = []
    for (let i = 0; i < 4; i++) stills.push((await stickerWumpus(`Split Still ${i + 1}`, { still: true }))._id)
  }, 120_000)

  it('WhatsApp: 31 animated and 4 still stickers come as 3 packs (16 and 15 animated, 4 still), one ZIP each with ?part=N', async () => {
    const id = await createPack({
      name: 'Split Wumpuses',
      wumpusIds: [...stills.slice(0, 2), ...animated.slice(0, 31), ...stills.slice(2)],
    })
    const whatsapp = (await detail(id)).downloads.find((d) => d.platform === 'whatsapp')!
    expect(whatsapp).toMatchObject({
      fits: true,
      message: null,
      stickers: 35,
      bytes: 35 * fileBytes('whatsapp'),
      url: `/api/packs/${id}/download/whatsapp`,
      fileName: 'split-wumpuses.whatsapp.zip',
      notes: [
        'WhatsApp keeps still and animated stickers in separate packs of at most 30: this pack comes as 3 packs of 16 animated, 15 animated and 4 still stickers.',
      ],
    })
    expect(whatsapp.parts).toEqual(
      [16, 15, 4].map((stickers, i) => ({
        part: i + 1,
        url: `/api/packs/${id}/download/whatsapp?part=${i + 1}`,
        fileName: `split-wumpuses.whatsapp.part-${i + 1}-of-3.zip`,
        stickers,
        bytes: stickers * fileBytes('whatsapp'),
        still: i === 2,
        wastickers: { url: `/api/packs/${id}/download/wastickers?part=${i + 1}`, fileName: `split-wumpuses.part-${i + 1}-of-3.wastickers` },
      })),
    )
    expect(whatsapp.wastickers).toBeNull()

    // A part counts as a download of its own stickers only.
    const first = await zipOf(whatsapp.parts[0]!.url, whatsapp.parts[0]!.fileName)
    await server.downloads.flush()
    const downloads = async (wumpus: string) => (await server.store.wumpuses.get(wumpus))!.downloads
    expect([
      await downloads(animated[0]!),
      await downloads(animated[15]!),
      await downloads(animated[16]!),
      await downloads(stills[0]!),
    ]).toEqual([1, 1, 0, 0])
    const third = await zipOf(whatsapp.parts[2]!.url, whatsapp.parts[2]!.fileName)
    await server.downloads.flush()
    expect(await downloads(stills[0]!)).toBe(1)

    type Contents = {
      sticker_packs: { identifier: string; name: string; animated_sticker_pack: boolean; stickers: { image_file: string }[] }[]
    }
    const contents = (entries: typeof first) => (JSON.parse(read(entries, 'contents.json')) as Contents).sticker_packs
    expect(contents(first)).toMatchObject([{ identifier: `${id}-1`, name: 'Split Wumpuses (1/3)', animated_sticker_pack: true }])
    expect(contents(first)[0]!.stickers.map((sticker) => sticker.image_file)).toEqual(
      Array.from({ length: 16 }, (_, i) => `${String(i + 1).padStart(2, '0')}-split-${i + 1}.whatsapp.webp`),
    )
    expect(contents(third)).toMatchObject([{ identifier: `${id}-3`, name: 'Split Wumpuses (3/3)', animated_sticker_pack: false }])
    expect(third.map((entry) => entry.name)).toEqual([
      ...[1, 2, 3, 4].map((n) => `${n}-split-still-${n}.whatsapp.webp`),
      'tray.png',
      'title.txt',
      'author.txt',
      'contents.json',
      'README.txt',
    ])
    expect(read(third, 'title.txt')).toBe('Split Wumpuses (3/3)')

    const readme = read(first, 'README.txt')
    expect(readme).toContain('Split Wumpuses: WhatsApp stickers from Wumpus Gallery\r\n\r\nPart 1 of 3\r\n')
    expect(readme).toContain('16 stickers, in pack order:\r\n  01-split-1.whatsapp.webp')
    const names = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `Split ${from + i}`).join(', ')
    expect(readme).toContain(
      [
        'The other parts of this pack:',
        `  Part 2 of 3 (split-wumpuses.whatsapp.part-2-of-3.zip), 15 stickers: ${names(17, 31)}`,
        '  Part 3 of 3 (split-wumpuses.whatsapp.part-3-of-3.zip), 4 still stickers: Split Still 1, Split Still 2, Split Still 3, Split Still 4',
      ].join('\r\n'),
    )
    expect(readme).toContain(whatsapp.notes[0])
    expect(read(third, 'README.txt')).toContain(`  Part 1 of 3 (split-wumpuses.whatsapp.part-1-of-3.zip), 16 stickers: ${names(1, 16)}`)

    // Without ?part the split pack is refused, naming its parts; past the last part: 404.
    await refused(
      whatsapp.url,
      400,
      /^This pack comes as 3 WhatsApp packs: download each with \?part=1 to \?part=3 \(split-wumpuses\.whatsapp\.part-1-of-3\.zip, .+ and split-wumpuses\.whatsapp\.part-3-of-3\.zip\)\.$/,
    )
    await refused(`${whatsapp.url}?part=4`, 404, /^This pack comes as 3 WhatsApp packs: there is no part 4\.$/)

    // Each part also as a .wastickers file.
    const secondAsWastickers = await fetch(`${server.url}${whatsapp.parts[1]!.wastickers!.url}`)
    expect(secondAsWastickers.headers.get('content-disposition')).toContain('filename="split-wumpuses.part-2-of-3.wastickers"')
    const secondEntries = await readZip(new Uint8Array(await secondAsWastickers.arrayBuffer()))
    expect(secondEntries.filter((entry) => entry.name.endsWith('.webp'))).toHaveLength(15)
  })

  it('LINE: 40 stickers come as sets of 24 and 16; 30 as one set of 24 with 6 listed', async () => {
    const id = await createPack({ name: 'Line Split', wumpusIds: animated })
    const line = (await detail(id)).downloads.find((d) => d.platform === 'line')!
    expect(line).toMatchObject({
      fits: true,
      stickers: 40,
      notes: ['LINE sets have 8, 16 or 24 stickers: this pack comes as 2 sets of 24 and 16.'],
    })
    expect(line.parts.map((part) => [part.part, part.stickers, part.fileName, part.still])).toEqual([
      [1, 24, 'line-split.line.part-1-of-2.zip', false],
      [2, 16, 'line-split.line.part-2-of-2.zip', false],
    ])
    const second = await zipOf(line.parts[1]!.url, line.parts[1]!.fileName)
    expect(second.map((entry) => entry.name)).toEqual([
      ...Array.from({ length: 16 }, (_, i) => `${String(i + 1).padStart(2, '0')}-split-${25 + i}.line.png`),
      'main.png',
      'tab.png',
      'README.txt',
    ])
    for (const entry of second.filter((e) => e.name.endsWith('.line.png')))
      expect(checkStickerFile('line', entry.bytes).problems).toEqual([])
    const readme = read(second, 'README.txt')
    expect(readme).toContain('\r\nPart 2 of 2\r\n')
    expect(readme).toContain(`  Part 1 of 2 (line-split.line.part-1-of-2.zip), 24 stickers: Split 1, Split 2,`)
    expect(readme).toContain('LINE sets have 8, 16 or 24 stickers: this pack comes as 2 sets of 24 and 16.')

    const thirty = await createPack({ name: 'Line Thirty', wumpusIds: animated.slice(0, 30) })
    const one = (await detail(thirty)).downloads.find((d) => d.platform === 'line')!
    expect(one).toMatchObject({
      fits: true,
      stickers: 24,
      bytes: 24 * fileBytes('line'),
      parts: [],
      notes: [
        'LINE sets have 8, 16 or 24 stickers: this ZIP is a set of 24.',
        '6 stickers are left out, past the last set: “Split 25”, “Split 26”, “Split 27”, “Split 28”, “Split 29” and “Split 30”.',
      ],
    })
    const entries = await zipOf(one.url, 'line-thirty.line.zip')
    expect(entries.filter((entry) => entry.name.endsWith('.line.png'))).toHaveLength(24)
    expect(read(entries, 'README.txt')).toContain('Left out (no LINE set holds them):\r\n  Split 25\r\n')
    // A pack in one ZIP: ?part=1 is that ZIP; there is no part 2.
    expect((await zipOf(`${one.url}?part=1`, 'line-thirty.line.zip')).length).toBe(entries.length)
    await refused(`${one.url}?part=2`, 404, /^This pack comes as one LINE set: there is no part 2\.$/)
  })

  it('refuses a part that is not a number from 1 to 200 and any other query, in the error shape', async () => {
    const id = await createPack({ name: 'Query Pack', wumpusIds: animated.slice(0, 3) })
    const url = `/api/packs/${id}/download/signal`
    for (const query of [
      '?part=0',
      '?part=-1',
      '?part=1.5',
      '?part=x',
      '?part=201',
      '?part=',
      '?part=1&part=2',
      '?page=1',
      '?part=1&x=1',
    ]) {
      const res = await fetch(server.url + url + query)
      expect(res.status, query).toBe(400)
      expect(errorBody(await res.json()).error.code).toBe('BAD_REQUEST')
    }
    expect((await fetch(`${server.url}${url}?part=1`)).status).toBe(200)
  })
})
