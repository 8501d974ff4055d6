import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../config'
import { DomainError } from '../domain/errors'
import { createLogger } from '../logger'
import { buildGif } from '../../test/fixtures/gif'
import { lottieBytes } from '../../test/fixtures/lottie'
import { closeRenderPool } from '../media/render/render-pool'
import { openTempStore, type TempStore } from '../../test/support/temp-store'
import type { Store } from '../store/port'
import { createAnimationFileService, type AnimationFileService } from './animation-files'

const OWNER = 'maker@example.com'
let temp: TempStore
let store: Store
let files: AnimationFileService

beforeEach(async () => {
  temp = await openTempStore('wumpus-files-')
  store = temp.store
  const config = loadConfig({ DATA_DIR: temp.dataDir, LOG_LEVEL: 'silent', MAX_GIF_BYTES: '60000' })
  files = createAnimationFileService({ store, config, logger: createLogger('silent') })
})
afterEach(async () => {
  await temp.close()
})
afterAll(() => closeRenderPool())

const storedCount = async () => (await store.files.list({ createdBefore: new Date(Date.now() + 60_000), limit: 1000 })).length

async function kindOf(run: Promise<unknown>): Promise<string> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(DomainError)
  return (error as DomainError).kind
}

describe('uploading an animation file', () => {
  it('stores a file judged by its bytes under its uploader, with a harmless name and the extension of its format', async () => {
    const { file, info } = await files.upload(OWNER, { format: 'gif', bytes: buildGif(), name: 'C:\\uploads\\Wave <3>.GIF' })
    expect(info.format).toBe('gif')
    expect(file).toMatchObject({ owner: OWNER, purpose: 'animation', contentType: 'image/gif', filename: 'Wave 3.gif' })
    expect((await store.files.read(file.id))?.bytes).toEqual(buildGif())
  })

  it('refuses, storing nothing, a file over its format limit or not of its format', async () => {
    expect(await kindOf(files.upload(OWNER, { format: 'gif', bytes: new Uint8Array(60_001), name: 'big.gif' }))).toBe('too-large')
    expect(await kindOf(files.upload(OWNER, { format: 'apng', bytes: buildGif(), name: 'gif.png' }))).toBe('wrong-type')
    expect(await kindOf(files.upload(OWNER, { format: 'lottie', bytes: new TextEncoder().encode('{"v":'), name: 'cut.json' }))).toBe(
      'invalid',
    )
    expect(await storedCount()).toBe(0)
  })

  it('takes a Lottie from one of our own file links', async () => {
    const { file } = await files.upload('someone@example.com', { format: 'lottie', bytes: lottieBytes(), name: 'wave.json' })
    const linked = await files.uploadLink(OWNER, `/api/files/${file.id}/wave.json`)
    expect(linked.file).toMatchObject({ owner: OWNER, filename: 'wave.json' })
    expect(await kindOf(files.uploadLink(OWNER, `/api/files/${'f'.repeat(24)}/gone.json`))).toBe('not-found')
  })
})

describe('rendering an uploaded Lottie', () => {
  it('renders GIF and APNG under the caller, and only from a Lottie uploaded for an animation', async () => {
    const lottie = await files.upload(OWNER, { format: 'lottie', bytes: lottieBytes(), name: 'wave.json' })
    const rendered = await files.render(OWNER, lottie.file.id)
    expect(rendered.gif.file).toMatchObject({ owner: OWNER, contentType: 'image/gif', filename: 'wave.gif' })
    expect(rendered.apng.file).toMatchObject({ owner: OWNER, contentType: 'image/apng', filename: 'wave.png' })

    const gif = await files.upload(OWNER, { format: 'gif', bytes: buildGif(), name: 'wave.gif' })
    expect(await kindOf(files.render(OWNER, gif.file.id))).toBe('not-found')
    expect(await kindOf(files.render(OWNER, 'f'.repeat(24)))).toBe('not-found')
  })
})
