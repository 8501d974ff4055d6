import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { wumpusColoursPath } from '../../../contract/api-paths'
import { myRemixListPath, remixKeysPath, remixPath, remixSharingPath } from '../../../contract/remix/remix-paths'
import { REMIXES_MAX } from '../../../contract/limits'
import { colourChoicesSchema } from '../../../contract/remix/recipe'
import { remixCreatedSchema } from '../../../contract/remix/remix-api'
import { stickerExportListSchema } from '../../../contract/stickers'
import { wumpusListSchema, wumpusSchema, type Wumpus } from '../../../contract/wumpus'
import { uploadedAnimationFileSchema } from '../../../contract/wumpus-write'
import { lottie, lottieBytes } from '../../test/fixtures/lottie'
import { createLogger } from '../logger'
import { createRemixService } from '../services/remixes'
import type { WumpusRecord } from '../store/port'
import { errorBody, expectError } from '../../test/support/error-body'
import { startTestServer, type TestServer } from '../../test/support/test-server'

let server: TestServer
const ADMIN = 'admin@example.com'
let admin: string

beforeAll(async () => {
  server = await startTestServer({}, { deriveMedia: true })
  await server.store.users.upsert(ADMIN, { user_name: 'Admin Person', role: 'admin' })
  admin = await server.sessionToken(ADMIN)
})
afterAll(() => server.close())

const call = (method: string, path: string, token?: string, body?: unknown) => server.call(method, path, token, body)

let people = 0
async function someone(options: { emailVerified?: boolean } = {}): Promise<{ email: string; token: string }> {
  const email = `remixer-${++people}@example.com`
  await server.store.users.upsert(email, { user_name: `Remixer ${people}` })
  return { email, token: await server.sessionToken(email, options) }
}

/** A Lottie uploaded by the admin (for publishing, or as an original's new Lottie). */
async function uploadLottie(bytes = lottieBytes()): Promise<string> {
  const data = new FormData()
  data.append('file', new Blob([new Uint8Array(bytes)]), 'ball.json')
  const res = await call('POST', '/api/uploads/animation?format=lottie', admin, data)
  expect(res.status, await res.clone().text()).toBe(201)
  return uploadedAnimationFileSchema.parse(await res.json()).id
}

/** An original published by the admin from a Lottie only (GIF and APNG rendered). */
async function publish(name = 'Bouncing Ball', bytes = lottieBytes()): Promise<Wumpus> {
  const data = new FormData()
  data.append('name', name)
  data.append('description', 'A ball to make your own')
  data.append('lottie', new Blob([new Uint8Array(bytes)]), 'ball.json')
  const res = await call('POST', '/api/wumpuses', admin, data)
  expect(res.status, await res.clone().text()).toBe(201)
  return wumpusSchema.parse(await res.json())
}

async function slotOf(id: string): Promise<string> {
  return colourChoicesSchema.parse(await (await call('GET', wumpusColoursPath(id))).json()).slots[0]!.id
}

async function remix(originalId: string, token: string, recipe: object = {}): Promise<string> {
  const res = await call('POST', remixPath(originalId), token, recipe)
  expect(res.status, await res.clone().text()).toBe(201)
  return remixCreatedSchema.parse(await res.json()).id
}

const unkeyed = (url: string) => url.split('?')[0]!
const fileIds = (record: WumpusRecord) => Object.values(record.files).map((file) => file.id)
const stored = async (ids: string[]) => Promise.all(ids.map(async (id) => (await server.store.files.info(id)) !== undefined))

describe('remixes over HTTP', () => {
  let original: Wumpus
  beforeAll(async () => {
    original = await publish()
  })

  it('makes a private remix its owner and admins see, with files of its own, shared by link when its owner says so', async () => {
    const owner = await someone()
    const other = await someone()
    const slot = await slotOf(original._id)
    const recipe = { colours: { [slot]: '#FF7FA6' }, caption: { text: 'Hi there', position: 'top' }, speed: 1.5, mirror: true }
    const id = await remix(original._id, owner.token, recipe)

    const mine = await call('GET', `/api/wumpus/${id}`, owner.token)
    expect(mine.status).toBe(200)
    expect(mine.headers.get('cache-control')).toBe('private, no-store')
    const shown = wumpusSchema.parse(await mine.json())
    expect(shown).toMatchObject({
      remixOf: original._id,
      recipe: { ...recipe, colours: { [slot]: '#ff7fa6' } },
      visibility: 'private',
      u_email: owner.email,
      // Named and described as a remix, so it never passes for the original.
      name: `${original.name}, your version`,
      description: expect.stringMatching(
        new RegExp(`^A remix of ${original.name} by .+: 1 colour changed, caption “Hi there” at the top, 1\\.5x speed, mirrored\\.$`),
      ),
    })
    expect(shown.remixes).toBeUndefined()
    for (const url of [shown.gif, shown.apng, shown.lottie]) expect(url).not.toBe(original.gif)
    // Its Lottie is the edit: the caption is drawn as paths, never a text layer.
    const edited = await (await call('GET', shown.lottie)).json()
    expect(JSON.stringify(edited)).not.toContain('"ty":5')

    for (const token of [undefined, other.token]) await expectError(await call('GET', `/api/wumpus/${id}`, token), 404, 'NOT_FOUND')
    expect((await call('GET', `/api/wumpus/${id}`, admin)).status).toBe(200)
    for (const path of ['stickers', 'still.png']) {
      expect((await call('GET', `/api/wumpus/${id}/${path}`, owner.token)).status).toBe(200)
      await expectError(await call('GET', `/api/wumpus/${id}/${path}`), 404, 'NOT_FOUND')
    }
    // Its files: its owner's (never publicly cacheable), by bearer or by the key in the URLs shown to them
    // (what an <img> or a download link opens); unknown to others.
    const bare = unkeyed(shown.gif)
    expect(shown.gif).toMatch(/\?key=[\w-]{22}$/)
    for (const [url, token] of [
      [bare, owner.token],
      [shown.gif, undefined],
    ] as const) {
      const gif = await call('GET', url, token)
      expect(gif.status).toBe(200)
      expect(gif.headers.get('cache-control')).toBe('private, no-cache')
    }
    for (const token of [undefined, other.token]) await expectError(await call('GET', `${bare}?download=1`, token), 404, 'NOT_FOUND')
    await expectError(await call('GET', `${bare}?key=${'A'.repeat(22)}`), 404, 'NOT_FOUND')
    // A malformed key (22 characters of more than 22 bytes, a wrong length) is a wrong key, never a 500.
    for (const key of ['é'.repeat(22), 'A'.repeat(23)])
      await expectError(await call('GET', `${bare}?key=${encodeURIComponent(key)}`), 404, 'NOT_FOUND')

    const original_ = wumpusSchema.parse(await (await call('GET', `/api/wumpus/${original._id}`)).json())
    expect(original_.remixes).toBeGreaterThanOrEqual(1)
    // Never in the gallery.
    const gallery = wumpusListSchema.parse(await (await call('GET', '/api/wumpuses?limit=100')).json())
    expect(gallery.map((item) => item._id)).not.toContain(id)

    const listed = await call('GET', myRemixListPath(), owner.token)
    expect(listed.headers.get('cache-control')).toBe('no-store')
    expect(wumpusListSchema.parse(await listed.json()).map((item) => item._id)).toEqual([id])
    expect(wumpusListSchema.parse(await (await call('GET', myRemixListPath(), other.token)).json())).toEqual([])

    // Sharing: its owner only.
    await expectError(await call('PUT', remixSharingPath(id), other.token, { visibility: 'link' }), 404, 'NOT_FOUND')
    await expectError(await call('PUT', remixSharingPath(id), admin, { visibility: 'link' }), 403, 'FORBIDDEN')
    await expectError(await call('PUT', remixSharingPath(id), owner.token, { visibility: 'public' }), 400, 'BAD_REQUEST')
    await expectError(await call('PUT', remixSharingPath(original._id), admin, { visibility: 'link' }), 404, 'NOT_FOUND')
    const shared = await call('PUT', remixSharingPath(id), owner.token, { visibility: 'link' })
    expect(wumpusSchema.parse(await shared.json()).visibility).toBe('link')
    const seen = await call('GET', `/api/wumpus/${id}`)
    expect(seen.status).toBe(200)
    expect(seen.headers.get('cache-control')).toBe('private, no-store')
    expect((await call('GET', bare)).status).toBe(200)
    await expectError(await call('PUT', remixSharingPath(id), other.token, { visibility: 'private' }), 403, 'FORBIDDEN')
    await call('PUT', remixSharingPath(id), owner.token, { visibility: 'private' })
    await expectError(await call('GET', `/api/wumpus/${id}`), 404, 'NOT_FOUND')

    // Its previews and chat app files follow, as for a new animation.
    await server.derivedMedia.idle()
    const stickers = stickerExportListSchema.parse(await (await call('GET', `/api/wumpus/${id}/stickers`, owner.token)).json())
    const discord = stickers.find((entry) => entry.platform === 'discord')!
    expect(discord.status).toBe('ready')
    expect((await call('GET', discord.url!)).status).toBe(200)
    await expectError(await call('GET', unkeyed(discord.url!)), 404, 'NOT_FOUND')
  })

  it('gives a private remix’s files new keys when its sharing changes and when its owner renews them: the old keyed URLs are 404', async () => {
    const owner = await someone()
    const other = await someone()
    const id = await remix(original._id, owner.token)
    const shownTo = async (token: string) => wumpusSchema.parse(await (await call('GET', `/api/wumpus/${id}`, token)).json())
    const first = await shownTo(owner.token)
    const keyedUrls = (wumpus: Wumpus) => [wumpus.gif, wumpus.apng, wumpus.lottie]
    for (const url of keyedUrls(first)) expect((await call('GET', url)).status).toBe(200)

    // Private, shared, private again: the URLs shown while it was first private open nothing any more.
    await call('PUT', remixSharingPath(id), owner.token, { visibility: 'link' })
    const again = await call('PUT', remixSharingPath(id), owner.token, { visibility: 'private' })
    const second = wumpusSchema.parse(await again.json())
    expect(second.gif).not.toBe(first.gif)
    expect(unkeyed(second.gif)).toBe(unkeyed(first.gif))
    for (const url of keyedUrls(first)) await expectError(await call('GET', url), 404, 'NOT_FOUND')
    for (const url of keyedUrls(second)) expect((await call('GET', url)).status).toBe(200)
    // Asking for the sharing it has already changes nothing.
    const same = wumpusSchema.parse(await (await call('PUT', remixSharingPath(id), owner.token, { visibility: 'private' })).json())
    expect(same.gif).toBe(second.gif)

    // Renewed by its owner: the answer carries the new URLs, the old ones are 404, its owner still sees it.
    const renewed = await call('POST', remixKeysPath(id), owner.token)
    expect(renewed.status).toBe(200)
    expect(renewed.headers.get('cache-control')).toBe('no-store')
    const third = wumpusSchema.parse(await renewed.json())
    expect(third).toMatchObject({ _id: id, visibility: 'private' })
    expect(third.gif).not.toBe(second.gif)
    for (const url of keyedUrls(second)) await expectError(await call('GET', url), 404, 'NOT_FOUND')
    for (const url of keyedUrls(third)) expect((await call('GET', url)).status).toBe(200)
    expect((await shownTo(owner.token)).gif).toBe(third.gif)
    expect((await call('GET', unkeyed(third.gif), owner.token)).status).toBe(200)
    // Its chat app files and previews follow the same keys.
    await server.derivedMedia.idle()
    const discord = stickerExportListSchema
      .parse(await (await call('GET', `/api/wumpus/${id}/stickers`, owner.token)).json())
      .find((entry) => entry.platform === 'discord')!
    expect(discord.url).toMatch(/\?key=/)
    expect((await call('GET', discord.url!)).status).toBe(200)
    await call('POST', remixKeysPath(id), owner.token)
    await expectError(await call('GET', discord.url!), 404, 'NOT_FOUND')

    // Its owner only, as for sharing; an original has no keys; signed out is 401.
    await expectError(await call('POST', remixKeysPath(id), other.token), 404, 'NOT_FOUND')
    await expectError(await call('POST', remixKeysPath(id), admin), 403, 'FORBIDDEN')
    await expectError(await call('POST', remixKeysPath(original._id), admin), 404, 'NOT_FOUND')
    await expectError(await call('POST', remixKeysPath(id)), 401, 'UNAUTHENTICATED')
    const stillShown = await shownTo(owner.token)
    expect((await call('GET', stillShown.gif)).status).toBe(200)
    // A remix, its previews and chat app files are rendered here: minutes on a busy machine.
  }, 120_000)

  it('takes a name from its maker, which its files carry, and captions in Greek and Cyrillic', async () => {
    const owner = await someone()
    const id = await remix(original._id, owner.token, { name: 'Бал, Μπάλα 2', caption: { text: 'Привет, κόσμε', position: 'top' } })
    const shown = wumpusSchema.parse(await (await call('GET', `/api/wumpus/${id}`, owner.token)).json())
    expect(shown.name).toBe('Бал, Μπάλα 2')
    // The caption is drawn: its layer holds the outlines of the letters.
    const edited = (await (await call('GET', shown.lottie, owner.token)).json()) as { layers: { nm?: string }[] }
    expect(JSON.stringify(edited.layers.find((layer) => layer.nm === 'caption')).match(/"ty":"sh"/g)!.length).toBeGreaterThan(10)

    const named = await remix(original._id, owner.token, { name: 'Ball in Pink' })
    const record = (await server.store.wumpuses.get(named))!
    expect(
      Object.values(record.files)
        .map((file) => file.filename)
        .sort(),
    ).toEqual(['ball-in-pink.gif', 'ball-in-pink.json', 'ball-in-pink.png'])
    await server.derivedMedia.idle()
    const stickers = stickerExportListSchema.parse(await (await call('GET', `/api/wumpus/${named}/stickers`, owner.token)).json())
    expect(stickers.find((entry) => entry.platform === 'discord')?.fileName).toBe('ball-in-pink.discord.png')
    for (const name of ['ab', 'x'.repeat(61), 'Ball <script>']) {
      expect(await expectError(await call('POST', remixPath(original._id), owner.token, { name }), 400, 'BAD_REQUEST')).toBeTruthy()
    }
  })

  it('renames a remix by the remix name rules, and its files follow the new name: URLs, chat app files and downloads', async () => {
    const owner = await someone()
    const id = await remix(original._id, owner.token)
    await server.derivedMedia.idle()
    // Its default name has a comma, as remix names may: it is taken back as it was given.
    const shown = wumpusSchema.parse(await (await call('GET', `/api/wumpus/${id}`, owner.token)).json())
    expect((await call('PUT', `/api/wumpuses/${id}`, owner.token, { name: shown.name })).status).toBe(200)
    const renamed = await call('PUT', `/api/wumpuses/${id}`, owner.token, { name: 'Waving back, in pink' })
    expect(renamed.status).toBe(200)
    const after = wumpusSchema.parse(await renamed.json())
    expect(after.name).toBe('Waving back, in pink')
    expect(decodeURIComponent(new URL(after.gif, server.url).pathname.split('/').pop()!)).toBe('waving-back-in-pink.gif')

    const stickers = stickerExportListSchema.parse(await (await call('GET', `/api/wumpus/${id}/stickers`, owner.token)).json())
    const discord = stickers.find((entry) => entry.platform === 'discord')!
    expect(discord.fileName).toBe('waving-back-in-pink.discord.png')
    const download = await call('GET', `${discord.url!}${discord.url!.includes('?') ? '&' : '?'}download=1`, owner.token)
    expect(download.headers.get('content-disposition')).toContain('filename="waving-back-in-pink.discord.png"')
    const gif = await call('GET', `${after.gif}${after.gif.includes('?') ? '&' : '?'}download=1`, owner.token)
    expect(gif.headers.get('content-disposition')).toContain('filename="waving-back-in-pink.gif"')

    await expectError(await call('PUT', `/api/wumpuses/${id}`, owner.token, { name: 'ab' }), 400, 'BAD_REQUEST')
  })

  it('lets its owner rename a remix but never change its files, and delete it with every file', async () => {
    const owner = await someone()
    const other = await someone()
    const id = await remix(original._id, owner.token)
    const renamed = await call('PUT', `/api/wumpuses/${id}`, owner.token, { name: 'My Ball' })
    expect(wumpusSchema.parse(await renamed.json()).name).toBe('My Ball')
    const files = await call('PUT', `/api/wumpuses/${id}`, owner.token, { files: { lottie: await uploadLottie() } })
    expect(await expectError(files, 400, 'BAD_REQUEST')).toMatchObject({ details: { field: 'files' } })
    await expectError(await call('PUT', `/api/wumpuses/${id}`, other.token, { name: 'Mine now' }), 404, 'NOT_FOUND')

    await server.derivedMedia.idle()
    const record = (await server.store.wumpuses.get(id))!
    const ids = [...fileIds(record), ...(record.derived?.previews ? [record.derived.previews.small.id] : [])]
    await expectError(await call('DELETE', `/api/wumpus/${id}`, other.token), 404, 'NOT_FOUND')
    const unverified = await server.sessionToken(owner.email, { emailVerified: false })
    await expectError(await call('DELETE', `/api/wumpus/${id}`, unverified), 403, 'FORBIDDEN')
    expect(await (await call('DELETE', `/api/wumpus/${id}`, owner.token)).json()).toEqual({ deletedCount: 1 })
    expect(await stored(ids)).toEqual(ids.map(() => false))
    // Deleting an original stays the admins'.
    await expectError(await call('DELETE', `/api/wumpus/${original._id}`, owner.token), 403, 'FORBIDDEN')
  })

  it('refuses what cannot be remixed, saying why, and leaves no file behind', async () => {
    const owner = await someone()
    const filesBefore = (await server.store.files.listByOwner(owner.email, 'animation')).length
    const id = await remix(original._id, owner.token)
    await expectError(await call('POST', remixPath(id), owner.token, {}), 409, 'CONFLICT', 'remix-of-remix')
    await expectError(await call('GET', wumpusColoursPath(id), owner.token), 409, 'CONFLICT', 'remix-of-remix')
    const unknownSlot = await expectError(
      await call('POST', remixPath(original._id), owner.token, { colours: { abcdef: '#000000' } }),
      400,
      'BAD_REQUEST',
      'unknown-colour-slot',
    )
    expect(unknownSlot.details).toMatchObject({ field: 'colours', unknown: ['abcdef'] })
    const caption = await expectError(
      await call('POST', remixPath(original._id), owner.token, { caption: { text: 'Hi 你好', position: 'bottom' } }),
      400,
      'BAD_REQUEST',
      'caption-characters',
    )
    expect(caption.message).toMatch(/^Chinese script is not supported yet\./)
    expect(caption.details).toMatchObject({ characters: ['你', '好'] })
    for (const [text, reason] of [
      ['مرحبا', /^Arabic script is not supported yet\./],
      ['gm 👋', /^Emoji cannot be drawn in a caption yet\./],
    ] as const) {
      const refused = await expectError(
        await call('POST', remixPath(original._id), owner.token, { caption: { text, position: 'bottom' } }),
        400,
        'BAD_REQUEST',
        'caption-characters',
      )
      expect(refused.message).toMatch(reason)
    }
    await expectError(await call('POST', remixPath(original._id), owner.token, { speed: 9 }), 400, 'BAD_REQUEST')
    await expectError(await call('POST', remixPath('f'.repeat(24)), owner.token, {}), 404, 'NOT_FOUND')
    await expectError(await call('POST', remixPath(original._id), undefined, {}), 401, 'UNAUTHENTICATED')
    const unverified = await someone({ emailVerified: false })
    await expectError(await call('POST', remixPath(original._id), unverified.token, {}), 403, 'FORBIDDEN')
    // An edit past the complexity caps is refused as the upload of that Lottie would be.
    const layers = Array.from({ length: 600 }, () => (lottie().layers as object[])[0])
    const heavy = await publish('Heavy Ball', lottieBytes({ layers }))
    const complex = await expectError(await call('POST', remixPath(heavy._id), owner.token, { outline: true }), 400, 'BAD_REQUEST')
    expect(complex.details).toMatchObject({ mediaCode: 'TOO_COMPLEX' })
    expect((await server.store.files.listByOwner(owner.email, 'animation')).length).toBe(filesBefore + 3)
  })

  it(`keeps at most ${REMIXES_MAX} remixes per account`, async () => {
    const owner = await someone()
    const made = (await server.store.wumpuses.get(await remix(original._id, owner.token)))!
    for (let i = 1; i < REMIXES_MAX; i++) {
      await server.store.wumpuses.insertRemix(
        { ...made, remix: made.remix!, files: await placeholderFiles(owner.email) },
        { max: REMIXES_MAX },
      )
    }
    await expectError(await call('POST', remixPath(original._id), owner.token, {}), 409, 'CONFLICT', 'remixes-full')
    expect((await server.store.files.listByOwner(owner.email, 'animation')).length).toBe(3 * REMIXES_MAX)
  })

  it('answers 503 with Retry-After while the render queue is full', async () => {
    const owner = await someone()
    const answers = await Promise.all(Array.from({ length: 10 }, () => call('POST', remixPath(original._id), owner.token, {})))
    const busy = answers.filter((res) => res.status === 503)
    expect(busy.length).toBeGreaterThan(0)
    expect(answers.every((res) => res.status === 201 || res.status === 503)).toBe(true)
    expect(Number(busy[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(errorBody(await busy[0]!.json()).error.code).toBe('SERVER_BUSY')
    const made = answers.filter((res) => res.status === 201).length
    expect((await server.store.files.listByOwner(owner.email, 'animation')).length).toBe(3 * made)
  })

  it('keeps private remixes out of favourites and packs of anyone but their owner', async () => {
    const owner = await someone()
    const other = await someone()
    const id = await remix(original._id, owner.token)
    await expectError(await call('PUT', `/api/me/favourites/${id}`, other.token), 404, 'NOT_FOUND')
    expect((await call('PUT', `/api/me/favourites/${id}`, owner.token)).status).toBe(204)
    await call('PUT', remixSharingPath(id), owner.token, { visibility: 'link' })
    expect((await call('PUT', `/api/me/favourites/${id}`, other.token)).status).toBe(204)
    // Someone else's shared remix is not for one's packs, nor any remix for public packs.
    const packOf = (token: string, wumpusIds: string[]) => call('POST', '/api/me/packs', token, { name: 'Balls', wumpusIds })
    await expectError(await packOf(other.token, [original._id, id]), 400, 'BAD_REQUEST')
    await expectError(await call('POST', '/api/packs', admin, { name: 'Balls', wumpusIds: [id] }), 400, 'BAD_REQUEST')
    const pack = await packOf(owner.token, [original._id, id])
    expect(pack.status, await pack.clone().text()).toBe(201)
    const packId = ((await pack.json()) as { id: string }).id
    await call('PUT', `/api/packs/${packId}`, owner.token, { visibility: 'link' })

    await call('PUT', remixSharingPath(id), owner.token, { visibility: 'private' })
    const favourites = wumpusListSchema.parse(await (await call('GET', '/api/me/favourites', other.token)).json())
    expect(favourites.map((item) => item._id)).not.toContain(id)
    const items = async (token?: string) =>
      ((await (await call('GET', `/api/packs/${packId}`, token)).json()) as { items: Wumpus[] }).items.map((item) => item._id)
    expect(await items(owner.token)).toEqual([original._id, id])
    expect(await items()).toEqual([original._id])
    expect(await items(other.token)).toEqual([original._id])
  })

  it('makes a remix again when it is next opened after the original’s Lottie changed, not before, and removes remixes with the original', async () => {
    const owner = await someone()
    const ball = await publish('Changing Ball')
    const id = await remix(ball._id, owner.token, { mirror: true })
    const unopened = await remix(ball._id, owner.token, { speed: 2 })
    const before = (await server.store.wumpuses.get(id))!
    const edit = await call('PUT', `/api/wumpuses/${ball._id}`, admin, {
      files: { lottie: await uploadLottie(lottieBytes({ op: 30 })) },
    })
    expect(edit.status, await edit.clone().text()).toBe(200)
    const lottieId = (await server.store.wumpuses.get(ball._id))!.files.lottie.id
    // Opening it answers it as it is, and starts its remake.
    const opened = wumpusSchema.parse(await (await call('GET', `/api/wumpus/${id}`, owner.token)).json())
    expect(opened.lottie).toContain(before.files.lottie.id)
    const after = await vi.waitFor(
      async () => {
        const record = (await server.store.wumpuses.get(id))!
        expect(record.remix!.source).toBe(lottieId)
        return record
      },
      { timeout: 100_000, interval: 50 },
    )
    expect(after.remix).toEqual({ ...before.remix, source: lottieId })
    expect(await stored(fileIds(before))).toEqual([false, false, false])
    const shown = wumpusSchema.parse(await (await call('GET', `/api/wumpus/${id}`, owner.token)).json())
    expect(((await (await call('GET', shown.lottie, owner.token)).json()) as { op: number }).op).toBe(30)
    // The remix nobody opened is as it was: the edit cost nothing for it.
    expect((await server.store.wumpuses.get(unopened))!.remix!.source).toBe(before.remix!.source)

    await server.derivedMedia.idle()
    const unopenedRecord = (await server.store.wumpuses.get(unopened))!
    expect((await call('DELETE', `/api/wumpus/${ball._id}`, admin)).status).toBe(200)
    expect(await server.store.wumpuses.get(id)).toBeUndefined()
    expect(await server.store.wumpuses.get(unopened)).toBeUndefined()
    expect(await stored([...fileIds(after), ...fileIds(unopenedRecord)])).toEqual([false, false, false, false, false, false])
    // The render worker makes the original's and the remix's previews and exports first: slow on 2 cores.
  }, 120_000)
})

/** The remix service as another instance (or this one after a restart) has it: nothing remembered in memory. */
const freshRemixService = () =>
  createRemixService({
    store: server.store,
    config: server.config,
    logger: createLogger('silent'),
    derivedMedia: server.derivedMedia,
    colourSlots: server.colourSlots,
  })

describe('remixes left behind', () => {
  it('are made again when opened, once per change of their original, after a restart too', async () => {
    const owner = await someone()
    const ball = await publish('Restarted Ball')
    const id = await remix(ball._id, owner.token)
    // The original's Lottie changed while this server did not run (another instance's edit, a restart).
    const record = (await server.store.wumpuses.get(ball._id))!
    const next = await server.store.files.put({
      bytes: lottieBytes({ op: 20 }),
      contentType: 'application/json',
      filename: 'next.json',
      owner: ADMIN,
      purpose: 'animation',
    })
    await server.store.wumpuses.update(ball._id, { files: { ...record.files, lottie: { id: next.id, filename: next.filename } } })
    const remixes = freshRemixService()
    const stale = (await server.store.wumpuses.get(id))!
    // Two opens at once make it once.
    expect(await Promise.all([remixes.remakeIfStale(stale), remixes.remakeIfStale(stale)])).toEqual(['made', 'made'])
    expect((await server.store.wumpuses.get(id))!.remix!.source).toBe(next.id)
    expect(await remixes.remakeIfStale((await server.store.wumpuses.get(id))!)).toBe('current')
  }, 60_000)

  it('are not tried again after a failed remake until their original changes again', async () => {
    const owner = await someone()
    const ball = await publish('Broken Ball')
    const id = await remix(ball._id, owner.token)
    const record = (await server.store.wumpuses.get(ball._id))!
    // A Lottie file the remake cannot read.
    const broken = await server.store.files.put({
      bytes: new TextEncoder().encode('{"not": "a lottie"'),
      contentType: 'application/json',
      filename: 'broken.json',
      owner: ADMIN,
      purpose: 'animation',
    })
    await server.store.wumpuses.update(ball._id, { files: { ...record.files, lottie: { id: broken.id, filename: broken.filename } } })
    const remixes = freshRemixService()
    const stale = (await server.store.wumpuses.get(id))!
    expect(await remixes.remakeIfStale(stale)).toBe('failed')
    expect(await remixes.remakeIfStale(stale)).toBe('current')
    expect((await server.store.wumpuses.get(id))!.files).toEqual(stale.files)
  }, 60_000)
})

describe('remixes and the render rate limit', () => {
  it('counts a remix as a render', async () => {
    const limited = await startTestServer({ RATE_LIMIT_FACTOR: '0.1' })
    try {
      const email = 'limited@example.com'
      const token = await limited.sessionToken(email)
      const statuses: number[] = []
      // 20 renders per account in 10 min at factor 1: 2 here. An unknown original costs no render but counts.
      for (let i = 0; i < 3; i++) statuses.push((await fetch(`${limited.url}${remixPath('f'.repeat(24))}`, post(token))).status)
      expect(statuses).toEqual([404, 404, 429])
    } finally {
      await limited.close()
    }
  })

  it('counts a renewal of file keys as a remix change', async () => {
    const limited = await startTestServer({ RATE_LIMIT_FACTOR: '0.1' })
    try {
      const token = await limited.sessionToken('renewer@example.com')
      const statuses: number[] = []
      // 150 remix changes per account in 10 min at factor 1: 15 here. An unknown remix changes nothing but counts.
      for (let i = 0; i < 16; i++) statuses.push((await fetch(`${limited.url}${remixKeysPath('f'.repeat(24))}`, post(token))).status)
      expect(statuses).toEqual([...Array<number>(15).fill(404), 429])
    } finally {
      await limited.close()
    }
  })
})

const post = (token: string): RequestInit => ({
  method: 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: '{}',
})

async function placeholderFiles(owner: string): Promise<WumpusRecord['files']> {
  const put = async (filename: string, contentType: string) => {
    const info = await server.store.files.put({ bytes: new Uint8Array([1]), contentType, filename, owner, purpose: 'animation' })
    return { id: info.id, filename: info.filename }
  }
  return { gif: await put('a.gif', 'image/gif'), apng: await put('a.png', 'image/apng'), lottie: await put('a.json', 'application/json') }
}
