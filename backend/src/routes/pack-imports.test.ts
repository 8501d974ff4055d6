import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { packDetailSchema, packSchema } from '../../../contract/pack'
import {
  MASTODON_EMOJI_MAX_BYTES,
  MASTODON_SHORTCODE,
  MISSKEY_FILE_NAME,
  MISSKEY_NAME,
  PLEROMA_SHORTCODE,
} from '../../../contract/pack-imports'
import { buildGif } from '../../test/fixtures/gif'
import { expectError } from '../../test/support/error-body'
import { addWumpus, addWumpusWithEmojiGif, startTestServer, type TestServer } from '../../test/support/test-server'
import type { WumpusRecord } from '../store/port'

// Not execFileSync: the server answers in this process, and its event loop must keep running.
const run = async (command: string, args: string[]) => (await promisify(execFile)(command, args, { encoding: 'utf8' })).stdout
const runBytes = async (command: string, args: string[]) =>
  (await promisify(execFile)(command, args, { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 })).stdout

/**
 * Misskey's meta.json as its importer reads it (ImportCustomEmojisProcessorService, misskey-dev/misskey#10996):
 * `emojis[]` with `downloaded`, `fileName` (a file at the ZIP's root) and `emoji` (name, category, aliases,
 * license, isSensitive, localOnly); written by its own exporter with `metaVersion`, `host`, `exportedAt`.
 */
const misskeyMetaSchema = z
  .object({
    metaVersion: z.number().int(),
    host: z.string().min(1),
    exportedAt: z.string().min(1),
    emojis: z.array(
      z.object({
        downloaded: z.literal(true),
        fileName: z.string().regex(MISSKEY_FILE_NAME),
        emoji: z.object({
          name: z.string().regex(/^[a-zA-Z0-9_]+$/),
          category: z.string().nullable(),
          aliases: z.array(z.string()),
          license: z.string().nullable(),
          isSensitive: z.boolean(),
          localOnly: z.boolean(),
        }),
      }),
    ),
  })
  .strict()

/** `pleroma_ctl emoji get-packs -m <manifest>`: `{ name: { license, homepage, description, src, src_sha256, files } }`. */
const pleromaManifestSchema = z.record(
  z.string().regex(/^[a-z0-9_]+$/),
  z
    .object({
      license: z.string(),
      homepage: z.string().url(),
      description: z.string(),
      src: z.string().url(),
      src_sha256: z.string().regex(/^[0-9A-F]{64}$/),
      files: z.string(),
    })
    .strict(),
)
/** Pleroma's pack.json: `files` shortcode -> file, `pack` with its licence, homepage, description and fallback source. */
const pleromaFilesSchema = z.record(z.string().regex(/^[a-zA-Z0-9_-]+$/), z.string())
const pleromaPackJsonSchema = z
  .object({
    files: pleromaFilesSchema,
    pack: z
      .object({
        license: z.string(),
        homepage: z.string().url(),
        description: z.string(),
        'fallback-src': z.string().url(),
        'fallback-src-sha256': z.string().regex(/^[0-9A-F]{64}$/),
        'share-files': z.boolean(),
      })
      .strict(),
  })
  .strict()

let server: TestServer
let admin: string
const ADMIN = 'import-admin@example.com'
const OWNER = 'import-owner@example.com'

beforeAll(async () => {
  server = await startTestServer()
  await server.store.users.upsert(ADMIN, { user_name: 'Import Admin', role: 'admin' })
  admin = await server.sessionToken(ADMIN)
})
afterAll(() => server.close())

/** An animation with an emoji GIF of `bytes` bytes (a real GIF, padded past its trailer when asked). */
async function emojiWumpus(name: string, fields: Partial<Pick<WumpusRecord, 'tags' | 'keywords' | 'u_name'>> = {}, size?: number) {
  const gif = buildGif()
  const bytes = size ? new Uint8Array(size).fill(0x3b) : gif
  if (size) bytes.set(gif)
  const record = await addWumpusWithEmojiGif(server.store, { name, ...fields }, bytes)
  return { record, bytes }
}

async function createPack(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${server.url}/api/packs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(res.status, await res.clone().text()).toBe(201)
  return packSchema.parse(await res.json()).id
}

const tmpFile = (name: string, bytes: Uint8Array) => {
  const file = join(mkdtempSync(join(tmpdir(), 'pack-import-')), name)
  writeFileSync(file, bytes)
  return file
}

describe('a pack in the formats community servers import', () => {
  let pack: string
  const gifs = new Map<string, Uint8Array>()
  let without: WumpusRecord

  beforeAll(async () => {
    const waving = await emojiWumpus('Waving Wumpus', { tags: ['wave', 'hello'], keywords: ['hi', 'wave'], u_name: 'Ada' })
    const twin = await emojiWumpus('Waving wumpus!', { tags: [], keywords: ['twin'], u_name: 'Grace' })
    const cafe = await emojiWumpus('Café Wumpus', { tags: ['coffee'], u_name: 'Ada' })
    const big = await emojiWumpus('Big Wumpus', {}, MASTODON_EMOJI_MAX_BYTES + 1)
    without = await addWumpus(server.store, { name: 'No Emoji Wumpus' })
    gifs.set('waving_wumpus', waving.bytes).set('waving_wumpus_2', twin.bytes).set('cafe_wumpus', cafe.bytes).set('big_wumpus', big.bytes)
    pack = await createPack({
      name: 'Fedi Wumpuses',
      description: 'Wumpuses for your server',
      wumpusIds: [waving.record._id, twin.record._id, cafe.record._id, big.record._id, without._id],
    })
  })

  it("lists each format in the pack's answer, with Pleroma's pull address for a public pack", async () => {
    const detail = packDetailSchema.parse(await (await fetch(`${server.url}/api/packs/${pack}`)).json())
    expect(detail.imports!.map((i) => [i.format, i.url, i.fileName, i.fits, i.emoji, i.skipped])).toEqual([
      ['misskey', `/api/packs/${pack}/download/misskey`, 'fedi-wumpuses.misskey-emoji.zip', true, 4, 1],
      ['mastodon', `/api/packs/${pack}/download/mastodon`, 'fedi-wumpuses.mastodon-emoji.tar.gz', true, 3, 2],
      ['pleroma', `/api/packs/${pack}/download/pleroma`, 'fedi-wumpuses.pleroma-emoji.zip', true, 4, 1],
    ])
    const mastodon = detail.imports!.find((i) => i.format === 'mastodon')!
    expect(mastodon.notes.join(' ')).toMatch(/“Big Wumpus” \(Its GIF is over Mastodon’s 256 KB emoji limit\)/)
    expect(mastodon.notes.join(' ')).toContain('“No Emoji Wumpus”')
    expect(detail.imports!.find((i) => i.format === 'pleroma')!.pleroma).toEqual({
      packName: 'wumpus_fedi_wumpuses',
      manifestUrl: `/api/packs/${pack}/pleroma/manifest.json`,
      packJsonUrl: `/api/packs/${pack}/pleroma/pack.json`,
    })
  })

  it('misskey: a ZIP with meta.json as Misskey imports it, every emoji file at its root, read by unzip', async () => {
    const res = await fetch(`${server.url}/api/packs/${pack}/download/misskey`)
    expect(res.status, await res.clone().text()).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/zip')
    expect(res.headers.get('content-disposition')).toContain('attachment; filename="fedi-wumpuses.misskey-emoji.zip"')
    const file = tmpFile('pack.zip', new Uint8Array(await res.arrayBuffer()))
    expect(Number(res.headers.get('content-length'))).toBe(statSync(file).size)
    const listed = (await run('unzip', ['-Z1', file])).trim().split('\n')
    expect(listed).toEqual(['waving_wumpus.gif', 'waving_wumpus_2.gif', 'cafe_wumpus.gif', 'big_wumpus.gif', 'meta.json', 'README.txt'])
    const meta = misskeyMetaSchema.parse(JSON.parse(await run('unzip', ['-p', file, 'meta.json'])))
    expect(meta.host).toBe(new URL(server.url).host)
    for (const { fileName, emoji } of meta.emojis) {
      expect(emoji.name).toMatch(MISSKEY_NAME)
      expect(listed).toContain(fileName)
      expect(new Uint8Array(await runBytes('unzip', ['-p', file, fileName]))).toEqual(gifs.get(emoji.name))
      expect(emoji.category).toBe('Fedi Wumpuses')
    }
    expect(meta.emojis.map((e) => e.emoji.name)).toEqual(['waving_wumpus', 'waving_wumpus_2', 'cafe_wumpus', 'big_wumpus'])
    const waving = meta.emojis[0]!.emoji
    expect(waving.aliases).toEqual(['wave', 'hello', 'hi'])
    expect(waving.license).toMatch(/^By Ada, licence This gallery only; from Wumpus Gallery: http:\/\/.+\/wumpus\/[^/]+$/)
    expect(meta.emojis[1]!.emoji.license).toMatch(/^By Grace, /)
    const readme = await run('unzip', ['-p', file, 'README.txt'])
    expect(readme).toContain('No Emoji Wumpus: Still being made')
    expect(readme).toContain(':cafe_wumpus:  By Ada')
  })

  it('mastodon: a tar.gz whose .gif entries tootctl takes, named by their shortcodes, none over 256 KB, read by tar', async () => {
    const res = await fetch(`${server.url}/api/packs/${pack}/download/mastodon`)
    expect(res.status, await res.clone().text()).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/gzip')
    expect(res.headers.get('content-disposition')).toContain('attachment; filename="fedi-wumpuses.mastodon-emoji.tar.gz"')
    const file = tmpFile('pack.tar.gz', new Uint8Array(await res.arrayBuffer()))
    const listed = (await run('tar', ['-tzf', file])).trim().split('\n')
    expect(listed).toEqual(['waving_wumpus.gif', 'waving_wumpus_2.gif', 'cafe_wumpus.gif', 'README.txt'])
    const dir = mkdtempSync(join(tmpdir(), 'mastodon-'))
    await run('tar', ['-xzf', file, '-C', dir])
    // What tootctl reads: every .png and .gif entry, its shortcode the file name without the extension.
    for (const name of listed.filter((entry) => /\.(png|gif)$/.test(entry))) {
      const shortcode = name.replace(/\.[^.]+$/, '')
      expect(shortcode).toMatch(MASTODON_SHORTCODE)
      const bytes = readFileSync(join(dir, name))
      expect(bytes.length).toBeLessThanOrEqual(MASTODON_EMOJI_MAX_BYTES)
      expect(new Uint8Array(bytes)).toEqual(gifs.get(shortcode))
    }
    const readme = readFileSync(join(dir, 'README.txt'), 'utf8')
    expect(readme).toContain('Big Wumpus: Its GIF is over Mastodon’s 256 KB emoji limit')
  })

  it("pleroma: a manifest get-packs reads, its files list and pack.json, and a ZIP whose SHA-256 is the manifest's", async () => {
    const json = async (file: string) => {
      const res = await fetch(`${server.url}/api/packs/${pack}/pleroma/${file}`)
      expect(res.status, await res.clone().text()).toBe(200)
      expect(res.headers.get('content-type')).toContain('application/json')
      return res.json()
    }
    const manifest = pleromaManifestSchema.parse(await json('manifest.json'))
    expect(Object.keys(manifest)).toEqual(['wumpus_fedi_wumpuses'])
    const entry = manifest.wumpus_fedi_wumpuses!
    // get-packs reads `files` beside the manifest.
    expect(entry.files).toBe('files.json')
    const files = pleromaFilesSchema.parse(await json(entry.files))
    expect(Object.keys(files)).toEqual(['waving_wumpus', 'waving_wumpus_2', 'cafe_wumpus', 'big_wumpus'])
    for (const shortcode of Object.keys(files)) expect(shortcode).toMatch(PLEROMA_SHORTCODE)
    const packJson = pleromaPackJsonSchema.parse(await json('pack.json'))
    expect(packJson.files).toEqual(files)
    expect(packJson.pack['fallback-src']).toBe(entry.src)
    expect(packJson.pack['fallback-src-sha256']).toBe(entry.src_sha256)
    expect(entry.license).toBe('By Ada, Grace and Maker, from Wumpus Gallery (each emoji’s page names its maker)')
    expect(entry.description).toBe('Wumpuses for your server')

    const zip = new Uint8Array(await (await fetch(entry.src)).arrayBuffer())
    expect(createHash('sha256').update(zip).digest('hex').toUpperCase()).toBe(entry.src_sha256)
    const file = tmpFile('pleroma.zip', zip)
    const listed = (await run('unzip', ['-Z1', file])).trim().split('\n')
    for (const [shortcode, name] of Object.entries(files)) {
      expect(listed).toContain(name)
      expect(new Uint8Array(await runBytes('unzip', ['-p', file, name]))).toEqual(gifs.get(shortcode))
    }
    // The same bytes on every download, so the checksum holds.
    const again = new Uint8Array(await (await fetch(entry.src)).arrayBuffer())
    expect(createHash('sha256').update(again).digest('hex').toUpperCase()).toBe(entry.src_sha256)
  })

  it('refuses an unknown format or file, and a part of a whole archive, in the one error shape', async () => {
    await expectError(await fetch(`${server.url}/api/packs/${pack}/download/pixelfed`), 404, 'NOT_FOUND')
    await expectError(await fetch(`${server.url}/api/packs/${pack}/pleroma/index.json`), 404, 'NOT_FOUND')
    await expectError(await fetch(`${server.url}/api/packs/${pack}/download/misskey?part=2`), 404, 'NOT_FOUND')
    await expectError(await fetch(`${server.url}/api/packs/${pack}/download/mastodon?part=x`), 400, 'BAD_REQUEST')
    await expectError(await fetch(`${server.url}/api/packs/nope/download/misskey`), 404, 'NOT_FOUND')
  })

  it('a pack without any emoji file is refused with why', async () => {
    const empty = await createPack({ name: 'No Emoji Pack', wumpusIds: [without._id] })
    const detail = packDetailSchema.parse(await (await fetch(`${server.url}/api/packs/${empty}`)).json())
    expect(detail.imports!.every((i) => !i.fits && i.pleroma === null)).toBe(true)
    const error = await expectError(await fetch(`${server.url}/api/packs/${empty}/download/misskey`), 422, 'PACK_NOT_FIT')
    expect(error.message).toBe('None of this pack’s stickers has an emoji file for Misskey yet.')
    await expectError(await fetch(`${server.url}/api/packs/${empty}/pleroma/manifest.json`), 404, 'NOT_FOUND')
  })

  it("a private pack's archives are its owner's; it has no address another server pulls from", async () => {
    const { record } = await emojiWumpus('Private Wumpus')
    const id = (
      await server.store.packs.insert({
        name: 'Private Emoji',
        description: '',
        wumpusIds: [record._id],
        createdBy: OWNER,
        visibility: 'private',
      })
    ).id
    const owner = await server.sessionToken(OWNER)
    const asOwner = { headers: { authorization: `Bearer ${owner}` } }
    const detail = packDetailSchema.parse(await (await fetch(`${server.url}/api/packs/${id}`, asOwner)).json())
    const pleroma = detail.imports!.find((i) => i.format === 'pleroma')!
    expect(pleroma.pleroma).toBeNull()
    // The maker's keyed link opens it without a bearer, like the chat apps' ZIPs.
    expect(pleroma.url).toMatch(/\?key=/)
    const keyed = await fetch(`${server.url}${detail.imports!.find((i) => i.format === 'misskey')!.url}`)
    expect(keyed.status).toBe(200)
    expect(keyed.headers.get('cache-control')).toBe('private, no-store')
    await expectError(await fetch(`${server.url}/api/packs/${id}/download/misskey`), 404, 'NOT_FOUND')
    await expectError(await fetch(`${server.url}/api/packs/${id}/pleroma/manifest.json`, asOwner), 404, 'NOT_FOUND')
  })
})
