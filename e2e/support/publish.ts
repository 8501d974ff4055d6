import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { inject } from 'vitest'
import { wumpusSchema, type Wumpus } from '../../contract/wumpus'
import { buildGif } from '../../backend/test/fixtures/gif'
import { lottieBytes } from '../../backend/test/fixtures/lottie'
import { buildApng } from '../../backend/test/fixtures/png'

const folder = mkdtempSync(path.join(tmpdir(), 'wumpus-e2e-files-'))
const fixture = (name: string, bytes: Uint8Array) => {
  const file = path.join(folder, name)
  writeFileSync(file, bytes)
  return file
}

/** Small but valid files of each format, on disk for file choosers. */
export const FIXTURE_FILES = {
  apng: fixture('party.png', buildApng({ width: 32, height: 32 })),
  gif: fixture('party.gif', buildGif({ width: 32, height: 32 })),
  lottie: fixture('party.json', lottieBytes()),
}

/** Optional fields of a publish, as a client sends them (emoji as characters). */
export interface PublishExtras {
  tags?: string[]
  emoji?: string[]
  keywords?: string[]
}

/** Publishes an animation through the API as an admin (upload each file, then publish the ids). */
export async function publishAnimation(adminToken: string, name: string, extras: PublishExtras = {}): Promise<Wumpus> {
  const baseURL = inject('baseURL')
  const auth = { authorization: `Bearer ${adminToken}` }
  const upload = async (format: keyof typeof FIXTURE_FILES) => {
    const form = new FormData()
    form.append('file', new Blob([readFileSync(FIXTURE_FILES[format])]), path.basename(FIXTURE_FILES[format]))
    const res = await fetch(`${baseURL}/api/uploads/animation?format=${format}`, { method: 'POST', headers: auth, body: form })
    return ((await res.json()) as { id: string }).id
  }
  const files = { gif: await upload('gif'), apng: await upload('apng'), lottie: await upload('lottie') }
  const res = await fetch(`${baseURL}/api/wumpuses`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name, description: 'Published for a browser test', files, ...extras }),
  })
  const body: unknown = await res.json()
  if (res.status !== 201) throw new Error(`publish answered ${res.status}: ${JSON.stringify(body)}`)
  return wumpusSchema.parse(body)
}
