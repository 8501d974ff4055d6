import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appRouters } from '../app'
import { newId } from '../store/ids'
import { createRouteDeps } from '../composition'
import { createLogger } from '../logger'
import { buildGif } from '../../test/fixtures/gif'
import { lottieBytes } from '../../test/fixtures/lottie'
import { buildApng, stillPng } from '../../test/fixtures/png'
import { createAccount, deleteAccount, uniqueEmail, verifyEmail } from '../../test/support/firebase-emulator'
import { startBotApiStandIn, type BotApiStandIn } from '../../test/support/telegram-bot-api'
import { startDiscordStandIn, type DiscordStandIn } from '../../test/support/discord-api'
import { addPackWithSignalFile, addWumpus, addWumpusWithEmojiGif, startTestServer, type TestServer } from '../../test/support/test-server'

/**
 * Every endpoint of the app against every kind of caller. A new endpoint without a row here fails the
 * first test, so no route ships without its rule being written down and checked.
 */
type Persona = 'anonymous' | 'unverified' | 'user' | 'otherUser' | 'unverifiedAdmin' | 'admin'
const PERSONAS: Persona[] = ['anonymous', 'unverified', 'user', 'otherUser', 'unverifiedAdmin', 'admin']

const USER = 'owner@example.com'
const OTHER = 'other@example.com'
const ADMIN = 'admin@example.com'
/** An admin whose session has no verified email: admin in the store, without admin power. */
const UNVERIFIED_ADMIN = 'unproven-admin@example.com'
/** A user with a published animation, and one without. */
const CONTRIBUTOR = 'contributor@example.com'
const QUIET = 'quiet@example.com'

let server: TestServer
let bot: BotApiStandIn
let discord: DiscordStandIn
const tokens: Partial<Record<Persona, string>> = {}

interface Request {
  method: string
  path: string
  body?: unknown
}

type Expected = Record<Persona, number>
const everyone = (status: number): Expected => ({
  anonymous: status,
  unverified: status,
  user: status,
  otherUser: status,
  unverifiedAdmin: status,
  admin: status,
})
const signedIn = (status: number): Expected => ({ ...everyone(status), anonymous: 401 })
const adminOnly = (status: number): Expected => ({
  anonymous: 401,
  unverified: 403,
  user: 403,
  otherUser: 403,
  unverifiedAdmin: 403,
  admin: status,
})

const form = (field: string, bytes: Uint8Array, name: string) => {
  const data = new FormData()
  data.append(field, new Blob([new Uint8Array(bytes)]), name)
  return data
}

async function adminUpload(format: 'gif' | 'apng' | 'lottie', bytes: Uint8Array): Promise<string> {
  const res = await send(
    { method: 'POST', path: `/api/uploads/animation?format=${format}`, body: form('file', bytes, `f.${format}`) },
    'admin',
  )
  return ((await res.json()) as { id: string }).id
}

/** An animation uploaded by the "user" persona (an admin once, so the files are theirs). */
async function usersWumpus(): Promise<string> {
  await server.store.users.setRole(USER, 'admin')
  const files = {
    gif: await uploadAs('user', 'gif', buildGif()),
    apng: await uploadAs('user', 'apng', buildApng()),
    lottie: await uploadAs('user', 'lottie', lottieBytes()),
  }
  const res = await send(
    { method: 'POST', path: '/api/wumpuses', body: { name: 'Owned Wumpus', description: 'Owned by the user persona', files } },
    'user',
  )
  await server.store.users.upsert(USER, { role: 'user' })
  return ((await res.json()) as { _id: string })._id
}

async function uploadAs(persona: Persona, format: 'gif' | 'apng' | 'lottie', bytes: Uint8Array) {
  const res = await send(
    { method: 'POST', path: `/api/uploads/animation?format=${format}`, body: form('file', bytes, `f.${format}`) },
    persona,
  )
  return ((await res.json()) as { id: string }).id
}

/** A remix of the "user" persona's (USER), with placeholder files: private unless shared by link. */
async function usersRemix(visibility: 'private' | 'link' = 'private'): Promise<{ id: string; gif: string }> {
  const original = await addWumpus(server.store)
  const put = async (filename: string, contentType: string) => {
    const info = await server.store.files.put({ bytes: new Uint8Array([1]), contentType, filename, owner: USER, purpose: 'animation' })
    return { id: info.id, filename: info.filename }
  }
  const files = {
    gif: await put('r.gif', 'image/gif'),
    apng: await put('r.png', 'image/apng'),
    lottie: await put('r.json', 'application/json'),
  }
  const remix = await server.store.wumpuses.insertRemix(
    {
      name: 'Remixed',
      description: '',
      u_email: USER,
      u_name: 'Owner',
      files,
      remix: { of: original._id, recipe: {}, source: original.files.lottie.id, visibility },
    },
    { max: 1000 },
  )
  if (remix === 'full') throw new Error('full')
  return { id: remix._id, gif: files.gif.id }
}

const aPack = () => addPackWithSignalFile(server.store, 'Matrix', new Uint8Array([1, 2, 3]))
/** A personal pack of the "user" persona's (USER), with a Signal file. */
const usersPack = (visibility: 'private' | 'link') =>
  addPackWithSignalFile(server.store, 'Personal', new Uint8Array([1, 2, 3]), { createdBy: USER, visibility })
/** A pack (personal when `createdBy` is USER) whose sticker has an emoji GIF, for the community servers' archives. */
async function emojiPack(pack: { visibility?: 'public' | 'private' | 'link' } = {}): Promise<string> {
  const record = await addWumpusWithEmojiGif(server.store, { name: 'Emoji Wumpus', tags: ['wave'] }, buildGif())
  const visibility = pack.visibility ?? 'public'
  const createdBy = visibility === 'public' ? ADMIN : USER
  return (await server.store.packs.insert({ name: 'Emoji Pack', description: '', wumpusIds: [record._id], createdBy, visibility })).id
}
/** A private pack: 404 to all but its owner (verified or not, for reading) and verified admins. */
const privateRead: Expected = { anonymous: 404, unverified: 200, user: 200, otherUser: 404, unverifiedAdmin: 404, admin: 200 }
/** Writes need a verified email first; then the owner and verified admins. */
const personalWrite = (status: number, others: number): Expected => ({
  anonymous: 401,
  unverified: 403,
  user: status,
  otherUser: others,
  unverifiedAdmin: 403,
  admin: status,
})

const MATRIX: Record<string, { request: () => Promise<Request>; expected: Expected }> = {
  'GET /health': { request: async () => ({ method: 'GET', path: '/health' }), expected: everyone(200) },
  'GET /ready': { request: async () => ({ method: 'GET', path: '/ready' }), expected: everyone(200) },
  'GET /api/config': { request: async () => ({ method: 'GET', path: '/api/config' }), expected: everyone(200) },
  'GET /api/wumpuses': { request: async () => ({ method: 'GET', path: '/api/wumpuses' }), expected: everyone(200) },
  'GET /api/tags': { request: async () => ({ method: 'GET', path: '/api/tags' }), expected: everyone(200) },
  'GET /api/emoji': { request: async () => ({ method: 'GET', path: '/api/emoji' }), expected: everyone(200) },
  'GET /api/wumpus': { request: async () => ({ method: 'GET', path: `/api/wumpus?u_email=${USER}` }), expected: signedIn(200) },
  'GET /api/wumpus/:id': { request: async () => ({ method: 'GET', path: `/api/wumpus/${await usersWumpus()}` }), expected: everyone(200) },
  'GET /api/wumpus/:id/stickers': {
    request: async () => ({ method: 'GET', path: `/api/wumpus/${await usersWumpus()}/stickers` }),
    expected: everyone(200),
  },
  'GET /api/wumpus/:id/still.png': {
    request: async () => ({ method: 'GET', path: `/api/wumpus/${await usersWumpus()}/still.png` }),
    expected: everyone(200),
  },
  'GET /api/wumpus/:id/colours': {
    request: async () => ({ method: 'GET', path: `/api/wumpus/${await usersWumpus()}/colours` }),
    expected: everyone(200),
  },
  'GET /api/files/:id': {
    request: async () => ({ method: 'GET', path: `/api/files/${await adminUpload('gif', buildGif())}` }),
    expected: everyone(200),
  },
  'GET /api/files/:id/:name': {
    request: async () => ({ method: 'GET', path: `/api/files/${await adminUpload('gif', buildGif())}/f.gif` }),
    expected: everyone(200),
  },
  // A contributor's public profile; everyone else's profile: see RULES.
  'GET /api/profile/:email': { request: async () => ({ method: 'GET', path: `/api/profile/${CONTRIBUTOR}` }), expected: signedIn(200) },
  // With our session token it is a profile update: one's own only, with the email verified (the
  // unverified persona is the user, unverified). The sign-in exchange has its own table below.
  'PUT /api/user/:email': {
    request: async () => ({ method: 'PUT', path: `/api/user/${USER}`, body: { job: 'Animator' } }),
    expected: { anonymous: 401, unverified: 403, user: 200, otherUser: 403, unverifiedAdmin: 403, admin: 403 },
  },
  // About someone else: verified admins only (about oneself: see RULES).
  'GET /api/admin/:email': {
    request: async () => ({ method: 'GET', path: '/api/admin/someone-else@example.com' }),
    expected: adminOnly(200),
  },
  'POST /api/uploads/image': {
    request: async () => ({ method: 'POST', path: '/api/uploads/image', body: form('file', stillPng(), 'me.png') }),
    expected: signedIn(201),
  },
  'POST /api/uploads/animation': {
    request: async () => ({ method: 'POST', path: '/api/uploads/animation?format=gif', body: form('file', buildGif(), 'a.gif') }),
    expected: adminOnly(201),
  },
  'POST /api/uploads/lottie-link': {
    request: async () => ({
      method: 'POST',
      path: '/api/uploads/lottie-link',
      body: { url: `/api/files/${await adminUpload('lottie', lottieBytes())}/f.json` },
    }),
    expected: adminOnly(201),
  },
  'POST /api/renders': {
    request: async () => ({ method: 'POST', path: '/api/renders', body: { lottie: await adminUpload('lottie', lottieBytes()) } }),
    expected: adminOnly(201),
  },
  'POST /api/wumpuses': {
    request: async () => ({
      method: 'POST',
      path: '/api/wumpuses',
      body: {
        name: 'Matrix Wumpus',
        description: 'Published by the matrix',
        files: {
          gif: await adminUpload('gif', buildGif()),
          apng: await adminUpload('apng', buildApng()),
          lottie: await adminUpload('lottie', lottieBytes()),
        },
      },
    }),
    expected: adminOnly(201),
  },
  'PUT /api/wumpuses/:id': {
    request: async () => ({ method: 'PUT', path: `/api/wumpuses/${await usersWumpus()}`, body: { name: 'Edited Wumpus' } }),
    expected: { anonymous: 401, unverified: 403, user: 200, otherUser: 403, unverifiedAdmin: 403, admin: 200 },
  },
  'DELETE /api/wumpus/:id': {
    request: async () => ({ method: 'DELETE', path: `/api/wumpus/${await usersWumpus()}` }),
    expected: adminOnly(200),
  },
  // Any verified user remixes (a render each, at the render rate limit).
  'POST /api/wumpus/:id/remix': {
    request: async () => ({ method: 'POST', path: `/api/wumpus/${await usersWumpus()}/remix`, body: { mirror: true } }),
    expected: { anonymous: 401, unverified: 403, user: 201, otherUser: 201, unverifiedAdmin: 403, admin: 201 },
  },
  // Its owner only; a private remix is unknown to others, admins see it but do not share it.
  'PUT /api/wumpus/:id/sharing': {
    request: async () => ({ method: 'PUT', path: `/api/wumpus/${(await usersRemix()).id}/sharing`, body: { visibility: 'link' } }),
    expected: { anonymous: 401, unverified: 403, user: 200, otherUser: 404, unverifiedAdmin: 403, admin: 403 },
  },
  // Renewing a private remix's file keys: its owner only, like its sharing.
  'POST /api/wumpus/:id/key': {
    request: async () => ({ method: 'POST', path: `/api/wumpus/${(await usersRemix()).id}/key` }),
    expected: { anonymous: 401, unverified: 403, user: 200, otherUser: 404, unverifiedAdmin: 403, admin: 403 },
  },
  // One's own remixes (each sees only their own: remixes.test.ts).
  'GET /api/me/remixes': { request: async () => ({ method: 'GET', path: '/api/me/remixes' }), expected: signedIn(200) },
  'GET /api/users': { request: async () => ({ method: 'GET', path: '/api/users' }), expected: adminOnly(200) },
  'GET /api/backups': { request: async () => ({ method: 'GET', path: '/api/backups' }), expected: adminOnly(200) },
  'POST /api/backups': { request: async () => ({ method: 'POST', path: '/api/backups' }), expected: adminOnly(201) },
  'PUT /api/user/admin/:email': {
    request: async () => {
      const email = `promote-${Math.random().toString(36).slice(2)}@example.com`
      await server.store.users.upsert(email, { user_name: 'Promotable' })
      return { method: 'PUT', path: `/api/user/admin/${email}` }
    },
    expected: adminOnly(200),
  },
  // Signing out ends the caller's own session (each persona signs in again afterwards).
  'DELETE /api/session': { request: async () => ({ method: 'DELETE', path: '/api/session' }), expected: signedIn(204) },
  // Signing out everywhere (verified emails only) ends the sessions of the persona's email, which
  // 'unverified' and 'user' share: every persona signs in again before its turn.
  'DELETE /api/sessions': {
    request: async () => {
      await signInPersonas()
      return { method: 'DELETE', path: '/api/sessions' }
    },
    expected: { anonymous: 401, unverified: 403, user: 204, otherUser: 204, unverifiedAdmin: 403, admin: 204 },
  },
  'DELETE /api/admin/:email/sessions': {
    request: async () => {
      const email = `signed-out-${Math.random().toString(36).slice(2)}@example.com`
      await server.store.users.upsert(email, { user_name: 'Signed Out' })
      await server.sessionToken(email)
      return { method: 'DELETE', path: `/api/admin/${email}/sessions` }
    },
    expected: adminOnly(200),
  },
  'GET /api/activity': { request: async () => ({ method: 'GET', path: '/api/activity' }), expected: adminOnly(200) },
  'GET /api/packs': { request: async () => ({ method: 'GET', path: '/api/packs' }), expected: everyone(200) },
  'GET /api/packs/:id': { request: async () => ({ method: 'GET', path: `/api/packs/${await aPack()}` }), expected: everyone(200) },
  'GET /api/packs/:id/download/:platform': {
    request: async () => ({ method: 'GET', path: `/api/packs/${await aPack()}/download/signal` }),
    expected: everyone(200),
  },
  // What another server pulls, with no session: public and shared packs only.
  'GET /api/packs/:id/pleroma/:file': {
    request: async () => ({ method: 'GET', path: `/api/packs/${await emojiPack()}/pleroma/manifest.json` }),
    expected: everyone(200),
  },
  'POST /api/packs': {
    request: async () => ({
      method: 'POST',
      path: '/api/packs',
      body: { name: 'Matrix Pack', wumpusIds: [(await addWumpus(server.store))._id] },
    }),
    expected: adminOnly(201),
  },
  // With Telegram on (a Bot API stand-in): an admin's "make the Telegram set now" (telegram-sets.test.ts).
  'POST /api/packs/:id/telegram': {
    request: async () => ({ method: 'POST', path: `/api/packs/${await aPack()}/telegram` }),
    expected: adminOnly(202),
  },
  // Issue 36: one's Telegram link (telegram-links.test.ts); the webhook only with TELEGRAM_WEBHOOK_SECRET (unset here: 404).
  'GET /api/me/telegram': { request: async () => ({ method: 'GET', path: '/api/me/telegram' }), expected: signedIn(200) },
  'DELETE /api/me/telegram': { request: async () => ({ method: 'DELETE', path: '/api/me/telegram' }), expected: signedIn(200) },
  'POST /api/telegram/webhook': {
    request: async () => ({ method: 'POST', path: '/api/telegram/webhook', body: { update_id: 1 } }),
    expected: everyone(404),
  },
  // With Discord on (a stand-in): "Add to my Discord server" (discord.test.ts). A ticket for anyone signed in who
  // can open the pack; the navigation with it (here without one: back to the pack's page saying so) and Discord's
  // way back are open to all (the ticket and the state are the person's); a job is its starter's only.
  'POST /api/packs/:id/discord': {
    request: async () => ({ method: 'POST', path: `/api/packs/${await aPack()}/discord` }),
    expected: signedIn(200),
  },
  'GET /api/packs/:id/discord': {
    request: async () => ({ method: 'GET', path: `/api/packs/${await aPack()}/discord` }),
    expected: everyone(302),
  },
  'GET /api/discord/callback': {
    request: async () => ({ method: 'GET', path: '/api/discord/callback?error=access_denied' }),
    expected: everyone(302),
  },
  'GET /api/discord/uploads/:id': {
    request: async () => {
      const made = await server.store.discordUploads.create({
        id: newId(),
        stateHash: newId(),
        account: USER,
        packId: await aPack(),
        guildId: '1',
        now: new Date(),
      })
      return { method: 'GET', path: `/api/discord/uploads/${made!.id}` }
    },
    expected: { anonymous: 401, unverified: 200, user: 200, otherUser: 404, unverifiedAdmin: 404, admin: 404 },
  },
  'PUT /api/packs/:id': {
    request: async () => ({ method: 'PUT', path: `/api/packs/${await aPack()}`, body: { name: 'Renamed Pack' } }),
    expected: adminOnly(200),
  },
  'DELETE /api/packs/:id': { request: async () => ({ method: 'DELETE', path: `/api/packs/${await aPack()}` }), expected: adminOnly(200) },
  // One's own personal packs (each sees only their own: personal-packs.test.ts); making one needs a verified email.
  'GET /api/me/packs': { request: async () => ({ method: 'GET', path: '/api/me/packs' }), expected: signedIn(200) },
  'POST /api/me/packs': {
    request: async () => ({
      method: 'POST',
      path: '/api/me/packs',
      body: { name: 'My Matrix Pack', wumpusIds: [(await addWumpus(server.store))._id] },
    }),
    expected: { anonymous: 401, unverified: 403, user: 201, otherUser: 201, unverifiedAdmin: 403, admin: 201 },
  },
  // One's own favourites: any signed-in user, verified or not (each sees only their own: favourites.test.ts).
  'GET /api/me/favourites': { request: async () => ({ method: 'GET', path: '/api/me/favourites' }), expected: signedIn(200) },
  'GET /api/me/favourite-ids': { request: async () => ({ method: 'GET', path: '/api/me/favourite-ids' }), expected: signedIn(200) },
  'PUT /api/me/favourites/:id': {
    request: async () => ({ method: 'PUT', path: `/api/me/favourites/${(await addWumpus(server.store))._id}` }),
    expected: signedIn(204),
  },
  'DELETE /api/me/favourites/:id': {
    request: async () => ({ method: 'DELETE', path: `/api/me/favourites/${(await addWumpus(server.store))._id}` }),
    expected: signedIn(204),
  },
  // Submissions: sending, editing and withdrawing need a verified email; another's is unknown (404), to admins too.
  'POST /api/submissions': {
    request: async () => ({ method: 'POST', path: '/api/submissions', body: submissionForm() }),
    expected: { anonymous: 401, unverified: 403, user: 201, otherUser: 201, unverifiedAdmin: 403, admin: 201 },
  },
  'GET /api/me/submissions': { request: async () => ({ method: 'GET', path: '/api/me/submissions' }), expected: signedIn(200) },
  'GET /api/me/notifications': { request: async () => ({ method: 'GET', path: '/api/me/notifications' }), expected: signedIn(200) },
  'POST /api/me/notifications/read': {
    request: async () => ({ method: 'POST', path: '/api/me/notifications/read', body: {} }),
    expected: signedIn(200),
  },
  'PUT /api/submissions/:id': {
    request: async () => ({
      method: 'PUT',
      path: `/api/submissions/${await usersSubmission()}`,
      body: submissionForm({ name: 'Renamed Friend' }, false),
    }),
    expected: { anonymous: 401, unverified: 403, user: 200, otherUser: 404, unverifiedAdmin: 403, admin: 404 },
  },
  'DELETE /api/submissions/:id': {
    request: async () => ({ method: 'DELETE', path: `/api/submissions/${await usersSubmission()}` }),
    expected: { anonymous: 401, unverified: 403, user: 204, otherUser: 404, unverifiedAdmin: 403, admin: 404 },
  },
  'GET /api/submissions': { request: async () => ({ method: 'GET', path: '/api/submissions?state=waiting' }), expected: adminOnly(200) },
  'GET /api/submissions/:id/submitter': {
    request: async () => ({ method: 'GET', path: `/api/submissions/${await usersSubmission()}/submitter` }),
    expected: adminOnly(200),
  },
  'GET /api/submissions/:id/fit': {
    request: async () => ({ method: 'GET', path: `/api/submissions/${await usersSubmission()}/fit` }),
    expected: adminOnly(200),
  },
  'POST /api/submissions/:id/decision': {
    request: async () => ({
      method: 'POST',
      path: `/api/submissions/${await usersSubmission()}/decision`,
      body: { decision: 'refuse', note: 'Not for this gallery' },
    }),
    expected: adminOnly(200),
  },
  // Reports: anyone may report (signed in or not, verified or not); listing and deciding are the admins'.
  'POST /api/reports': {
    request: async () => ({
      method: 'POST',
      path: '/api/reports',
      body: { wumpusId: (await addWumpus(server.store))._id, reason: 'broken' },
    }),
    expected: everyone(201),
  },
  'GET /api/reports': { request: async () => ({ method: 'GET', path: '/api/reports?state=open' }), expected: adminOnly(200) },
  'POST /api/reports/decision': {
    request: async () => {
      const { _id } = await addWumpus(server.store)
      await server.store.reports.insertOpen({
        target: { kind: 'wumpus', id: _id },
        reason: 'spam',
        note: '',
        reporterKey: 'address:matrix',
      })
      return { method: 'POST', path: '/api/reports/decision', body: { wumpusId: _id, decision: 'dismiss' } }
    },
    expected: adminOnly(200),
  },
}

/** Only verified admins see a hidden animation; to everyone else, its maker too, it is unknown. */
const hiddenRead: Expected = { anonymous: 404, unverified: 404, user: 404, otherUser: 404, unverifiedAdmin: 404, admin: 200 }

/** An animation of the "user" persona's that an admin hid. */
async function usersHidden() {
  const record = await addWumpus(server.store, { u_email: USER })
  return (await server.store.wumpuses.setHidden(record._id, { at: new Date(), by: ADMIN }))!
}

/** A decision on a new animation with an open report (hidden first for restore). */
async function reportedDecision(decision: 'hide' | 'restore' | 'delete'): Promise<Request> {
  const { _id } = decision === 'restore' ? await usersHidden() : await addWumpus(server.store)
  await server.store.reports.insertOpen({ target: { kind: 'wumpus', id: _id }, reason: 'spam', note: '', reporterKey: 'address:matrix' })
  return { method: 'POST', path: '/api/reports/decision', body: { wumpusId: _id, decision } }
}

/** A submission's multipart body: every field (or the ones given) and, unless told not to, a Lottie. */
function submissionForm(fields?: Record<string, string>, withFile = true): FormData {
  const data = new FormData()
  const sent = fields ?? {
    name: 'Waving Friend',
    description: 'A friendly wave for every chat',
    emoji: '👋',
    licence: 'CC0-1.0',
    original: 'true',
  }
  for (const [key, value] of Object.entries(sent)) data.append(key, value)
  if (withFile) data.append('file', new Blob([new Uint8Array(lottieBytes())]), 'wave.json')
  return data
}

/** A waiting submission of the "user" persona's (USER), stored directly (the waiting cap is the API's). */
async function usersSubmission(): Promise<string> {
  const file = await server.store.files.put({
    bytes: lottieBytes(),
    contentType: 'application/json',
    filename: 'wave.json',
    owner: USER,
    purpose: 'submission',
  })
  const submission = await server.store.submissions.insert({
    u_email: USER,
    u_name: 'Owner',
    name: 'Waving Friend',
    description: 'A friendly wave for every chat',
    tags: [],
    emoji: [],
    keywords: [],
    licence: 'CC0-1.0',
    credit: '',
    source: '',
    original: true,
    sensitive: false,
    file: { id: file.id, filename: file.filename },
  })
  return submission.id
}

/** Rules that are not one endpoint each, over the same personas. */
const RULES: Record<string, { request: () => Promise<Request>; expected: Expected }> = {
  // The decisions on a reported animation: the admins' alone, whichever.
  ...Object.fromEntries(
    (['hide', 'restore', 'delete'] as const).map((decision) => [
      `POST /api/reports/decision ${decision}`,
      { request: async () => reportedDecision(decision), expected: adminOnly(200) },
    ]),
  ),
  // Issue 36: a personal pack's Telegram set is its owner's to ask for (409 with the bot's start link until linked).
  'POST /api/packs/:id/telegram of a personal pack': {
    request: async () => {
      const [record] = [await addWumpus(server.store)]
      const pack = await server.store.packs.insert({
        name: 'Own',
        description: '',
        wumpusIds: [record._id],
        createdBy: USER,
        visibility: 'link',
      })
      return { method: 'POST', path: `/api/packs/${pack.id}/telegram` }
    },
    expected: { anonymous: 401, unverified: 403, user: 409, otherUser: 403, unverifiedAdmin: 403, admin: 403 },
  },
  // A hidden animation (the "user" persona's): its detail and files are the admins' only, its maker's too.
  'GET /api/wumpus/:id of a hidden animation': {
    request: async () => ({ method: 'GET', path: `/api/wumpus/${(await usersHidden())._id}` }),
    expected: hiddenRead,
  },
  'GET /api/files/:id of a hidden animation': {
    request: async () => ({ method: 'GET', path: `/api/files/${(await usersHidden()).files.gif.id}` }),
    expected: hiddenRead,
  },
  'GET /api/wumpuses?u_email= (one uploader, like GET /api/wumpus?u_email=)': {
    request: async () => ({ method: 'GET', path: `/api/wumpuses?u_email=${USER}` }),
    expected: signedIn(200),
  },
  // Like an unknown email (404) to all but its owner and verified admins, so it does not tell who is registered.
  'GET /api/profile/:email of a user with no animation': {
    request: async () => ({ method: 'GET', path: `/api/profile/${QUIET}` }),
    expected: { anonymous: 401, unverified: 404, user: 404, otherUser: 404, unverifiedAdmin: 404, admin: 200 },
  },
  'GET /api/profile/:email about oneself': {
    request: async () => ({ method: 'GET', path: '/api/profile/{self}' }),
    expected: signedIn(200),
  },
  'GET /api/admin/:email about oneself': { request: async () => ({ method: 'GET', path: `/api/admin/{self}` }), expected: signedIn(200) },
  'GET /api/wumpus?u_email=': { request: async () => ({ method: 'GET', path: `/api/wumpus?u_email=${ADMIN}` }), expected: signedIn(200) },
  // A private remix of the "user" persona's: its owner's and admins' only, its files too.
  // Marking an animation sensitive is an edit like any other: its uploader or an admin.
  'PUT /api/wumpuses/:id with sensitive': {
    request: async () => ({ method: 'PUT', path: `/api/wumpuses/${await usersWumpus()}`, body: { sensitive: true } }),
    expected: { anonymous: 401, unverified: 403, user: 200, otherUser: 403, unverifiedAdmin: 403, admin: 200 },
  },
  // A sensitive animation is out of lists for most, but its page opens by link for anyone.
  'GET /api/wumpus/:id of a sensitive animation': {
    request: async () => ({ method: 'GET', path: `/api/wumpus/${(await addWumpus(server.store, { sensitive: true }))._id}` }),
    expected: everyone(200),
  },
  // The choice to see sensitive animations in lists is one's own profile's, like any of its fields.
  'PUT /api/user/:email with showSensitive': {
    request: async () => ({ method: 'PUT', path: `/api/user/${USER}`, body: { showSensitive: true } }),
    expected: { anonymous: 401, unverified: 403, user: 200, otherUser: 403, unverifiedAdmin: 403, admin: 403 },
  },
  'GET /api/wumpus/:id of a private remix': {
    request: async () => ({ method: 'GET', path: `/api/wumpus/${(await usersRemix()).id}` }),
    expected: privateRead,
  },
  'GET /api/wumpus/:id/stickers of a private remix': {
    request: async () => ({ method: 'GET', path: `/api/wumpus/${(await usersRemix()).id}/stickers` }),
    expected: privateRead,
  },
  'GET /api/files/:id of a private remix': {
    request: async () => ({ method: 'GET', path: `/api/files/${(await usersRemix()).gif}` }),
    expected: privateRead,
  },
  // A submission's Lottie: its submitter's and admins' only, like the submission.
  'GET /api/files/:id of a submission': {
    request: async () => ({ method: 'GET', path: `/api/files/${(await server.store.submissions.get(await usersSubmission()))!.file!.id}` }),
    expected: privateRead,
  },
  'PUT /api/wumpuses/:id of a private remix': {
    request: async () => ({ method: 'PUT', path: `/api/wumpuses/${(await usersRemix()).id}`, body: { name: 'Renamed Remix' } }),
    expected: personalWrite(200, 404),
  },
  'DELETE /api/wumpus/:id of a private remix': {
    request: async () => ({ method: 'DELETE', path: `/api/wumpus/${(await usersRemix()).id}` }),
    expected: personalWrite(200, 404),
  },
  // A remix shared by link: anyone with the link reads it and its files, as a pack shared by link; its
  // maker (or an admin) alone changes it.
  'GET /api/wumpus/:id of a remix shared by link': {
    request: async () => ({ method: 'GET', path: `/api/wumpus/${(await usersRemix('link')).id}` }),
    expected: everyone(200),
  },
  'GET /api/wumpus/:id/stickers of a remix shared by link': {
    request: async () => ({ method: 'GET', path: `/api/wumpus/${(await usersRemix('link')).id}/stickers` }),
    expected: everyone(200),
  },
  'GET /api/files/:id of a remix shared by link': {
    request: async () => ({ method: 'GET', path: `/api/files/${(await usersRemix('link')).gif}` }),
    expected: everyone(200),
  },
  'PUT /api/wumpuses/:id of a remix shared by link': {
    request: async () => ({ method: 'PUT', path: `/api/wumpuses/${(await usersRemix('link')).id}`, body: { name: 'Renamed Remix' } }),
    expected: personalWrite(200, 403),
  },
  'PUT /api/wumpus/:id/sharing of a remix shared by link': {
    request: async () => ({ method: 'PUT', path: `/api/wumpus/${(await usersRemix('link')).id}/sharing`, body: { visibility: 'private' } }),
    expected: { ...personalWrite(200, 403), admin: 403 },
  },
  'DELETE /api/wumpus/:id of a remix shared by link': {
    request: async () => ({ method: 'DELETE', path: `/api/wumpus/${(await usersRemix('link')).id}` }),
    expected: personalWrite(200, 403),
  },
  // Personal packs of the "user" persona's, by visibility: the rows above are the admins' public packs.
  'GET /api/packs/:id of a private pack': {
    request: async () => ({ method: 'GET', path: `/api/packs/${await usersPack('private')}` }),
    expected: privateRead,
  },
  'GET /api/packs/:id/download/:platform of a private pack': {
    request: async () => ({ method: 'GET', path: `/api/packs/${await usersPack('private')}/download/signal` }),
    expected: privateRead,
  },
  'GET /api/packs/:id/download/:platform as Misskey emoji': {
    request: async () => ({ method: 'GET', path: `/api/packs/${await emojiPack()}/download/misskey` }),
    expected: everyone(200),
  },
  'GET /api/packs/:id/download/:platform as Mastodon emoji': {
    request: async () => ({ method: 'GET', path: `/api/packs/${await emojiPack()}/download/mastodon` }),
    expected: everyone(200),
  },
  'GET /api/packs/:id/download/:platform as a Pleroma pack': {
    request: async () => ({ method: 'GET', path: `/api/packs/${await emojiPack()}/download/pleroma` }),
    expected: everyone(200),
  },
  'GET /api/packs/:id/download/:platform as Misskey emoji of a private pack': {
    request: async () => ({ method: 'GET', path: `/api/packs/${await emojiPack({ visibility: 'private' })}/download/misskey` }),
    expected: privateRead,
  },
  'GET /api/packs/:id/download/:platform as Mastodon emoji of a private pack': {
    request: async () => ({ method: 'GET', path: `/api/packs/${await emojiPack({ visibility: 'private' })}/download/mastodon` }),
    expected: privateRead,
  },
  // A private pack has no address another server pulls from, not even for its owner or an admin.
  'GET /api/packs/:id/pleroma/:file of a private pack': {
    request: async () => ({ method: 'GET', path: `/api/packs/${await emojiPack({ visibility: 'private' })}/pleroma/pack.json` }),
    expected: everyone(404),
  },
  'GET /api/packs/:id/pleroma/:file of a pack shared by link': {
    request: async () => ({ method: 'GET', path: `/api/packs/${await emojiPack({ visibility: 'link' })}/pleroma/files.json` }),
    expected: everyone(200),
  },
  'GET /api/packs/:id of a pack shared by link': {
    request: async () => ({ method: 'GET', path: `/api/packs/${await usersPack('link')}` }),
    expected: everyone(200),
  },
  'GET /api/packs/:id/download/:platform of a pack shared by link': {
    request: async () => ({ method: 'GET', path: `/api/packs/${await usersPack('link')}/download/signal` }),
    expected: everyone(200),
  },
  'PUT /api/packs/:id of a private pack': {
    request: async () => ({ method: 'PUT', path: `/api/packs/${await usersPack('private')}`, body: { name: 'Renamed Pack' } }),
    expected: personalWrite(200, 404),
  },
  'PUT /api/packs/:id of a pack shared by link': {
    request: async () => ({ method: 'PUT', path: `/api/packs/${await usersPack('link')}`, body: { visibility: 'private' } }),
    expected: personalWrite(200, 403),
  },
  'DELETE /api/packs/:id of a private pack': {
    request: async () => ({ method: 'DELETE', path: `/api/packs/${await usersPack('private')}` }),
    expected: personalWrite(200, 404),
  },
  'DELETE /api/packs/:id of a pack shared by link': {
    request: async () => ({ method: 'DELETE', path: `/api/packs/${await usersPack('link')}` }),
    expected: personalWrite(200, 403),
  },
}

const EMAIL: Record<Persona, string> = {
  anonymous: '',
  unverified: USER,
  user: USER,
  otherUser: OTHER,
  unverifiedAdmin: UNVERIFIED_ADMIN,
  admin: ADMIN,
}

async function signInPersonas() {
  tokens.unverified = await server.sessionToken(USER, { emailVerified: false })
  tokens.user = await server.sessionToken(USER)
  tokens.otherUser = await server.sessionToken(OTHER)
  tokens.unverifiedAdmin = await server.sessionToken(UNVERIFIED_ADMIN, { emailVerified: false })
  tokens.admin = await server.sessionToken(ADMIN)
}

function send(request: Request, persona: Persona): Promise<Response> {
  const token = tokens[persona]
  const json = request.body !== undefined && !(request.body instanceof FormData)
  return fetch(server.url + request.path.replace('{self}', EMAIL[persona] || USER), {
    method: request.method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(json ? { 'content-type': 'application/json' } : {}) },
    body: request.body === undefined ? undefined : json ? JSON.stringify(request.body) : (request.body as FormData),
    // A redirect is the answer (Discord's way in and out), not the page it leads to.
    redirect: 'manual',
  })
}

beforeAll(async () => {
  bot = await startBotApiStandIn({ owners: [1] })
  discord = await startDiscordStandIn({ guilds: [{ id: '1' }] })
  server = await startTestServer({
    TELEGRAM_BOT_TOKEN: bot.token,
    TELEGRAM_SET_OWNER_ID: '1',
    TELEGRAM_API_URL: bot.url,
    DISCORD_CLIENT_ID: discord.clientId,
    DISCORD_CLIENT_SECRET: discord.clientSecret,
    DISCORD_BOT_TOKEN: discord.botToken,
    DISCORD_API_URL: discord.apiUrl,
    DISCORD_AUTHORIZE_URL: discord.authorizeUrl,
  })
  await server.store.users.upsert(USER, { user_name: 'Owner' })
  await server.store.users.upsert(OTHER, { user_name: 'Other' })
  await server.store.users.upsert(ADMIN, { user_name: 'Admin', role: 'admin' })
  await server.store.users.upsert(UNVERIFIED_ADMIN, { user_name: 'Unproven Admin', role: 'admin' })
  await server.store.users.upsert(CONTRIBUTOR, { user_name: 'Contributor' })
  await addWumpus(server.store, { u_email: CONTRIBUTOR, u_name: 'Contributor' })
  await server.store.users.upsert(QUIET, { user_name: 'Quiet' })
  await signInPersonas()
})
afterAll(async () => {
  await server.close()
  await bot.close()
  await discord.close()
})

describe('authorization matrix', () => {
  it('has a row for every endpoint of the app', () => {
    const routes = appRouters(
      createRouteDeps({
        config: server.config,
        store: server.store,
        logger: createLogger('silent'),
        downloads: server.downloads,
        derivedMedia: server.derivedMedia,
        verifyIdToken: async () => {
          throw new Error('unused')
        },
      }),
    ).flatMap((router) =>
      router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${String(layer.path)}`)),
    )
    expect(routes.sort()).toEqual(Object.keys(MATRIX).sort())
  })

  for (const [endpoint, { request, expected }] of [...Object.entries(MATRIX), ...Object.entries(RULES)]) {
    it(`${endpoint}: ${PERSONAS.map((p) => `${p} ${expected[p]}`).join(', ')}`, async () => {
      const actual: Partial<Record<Persona, number>> = {}
      for (const persona of PERSONAS) actual[persona] = (await send(await request(), persona)).status
      expect(actual).toEqual(expected)
      // Signing out ended each persona's session; the next rows need them signed in again.
      if (endpoint === 'DELETE /api/session' || endpoint === 'DELETE /api/sessions') await signInPersonas()
    })
  }
})

/**
 * The sign-in exchange (PUT /api/user/{email} with a Firebase ID token) by who signs in: power
 * follows proof of the email, and an account bound to a Firebase account stays with it.
 */
describe('authorization matrix: the sign-in exchange', () => {
  const exchange = (email: string, idToken?: string) =>
    fetch(`${server.url}/api/user/${encodeURIComponent(email)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', ...(idToken ? { authorization: `Bearer ${idToken}` } : {}) },
      body: JSON.stringify({ email, user_name: 'Signing In', photo: '' }),
    })
  const bound = async () => {
    const account = await createAccount()
    await exchange(account.email, await verifyEmail(account))
    await deleteAccount(account.uid)
    return createAccount({ email: account.email })
  }

  const ROWS: [string, () => Promise<{ email: string; idToken?: string }>, number, (email: string) => Promise<void>][] = [
    ['no token', async () => ({ email: uniqueEmail() }), 401, async (email) => expect(await server.store.users.get(email)).toBeUndefined()],
    [
      'unverified, new email: a bare record',
      async () => createAccount(),
      200,
      async (email) => {
        expect(await server.store.users.get(email)).toMatchObject({ user_name: '', role: 'user' })
      },
    ],
    [
      'unverified, email of an existing unbound record: signed in, record unchanged',
      async () => {
        const email = uniqueEmail()
        await server.store.users.upsert(email, { user_name: 'Existing' })
        return createAccount({ email })
      },
      200,
      async (email) => expect(await server.store.users.get(email)).toMatchObject({ user_name: 'Existing' }),
    ],
    [
      'verified, new email: bound to its Firebase account',
      async () => {
        const account = await createAccount()
        return { email: account.email, idToken: await verifyEmail(account) }
      },
      200,
      async (email) => expect((await server.store.users.get(email))?.firebaseUid).toEqual(expect.any(String)),
    ],
    ['unverified, email bound to another Firebase account', bound, 403, async () => {}],
    [
      'verified, email bound to another Firebase account',
      async () => {
        const account = await bound()
        return { email: account.email, idToken: await verifyEmail(account) }
      },
      403,
      async () => {},
    ],
    ['a token for another email', async () => ({ email: uniqueEmail(), idToken: (await createAccount()).idToken }), 403, async () => {}],
    [
      'an address on a reserved domain',
      async () => createAccount({ email: `someone-${Date.now()}@demo.invalid` }),
      403,
      async (email) => {
        expect(await server.store.users.get(email)).toBeUndefined()
      },
    ],
  ]

  for (const [who, signingIn, status, check] of ROWS) {
    it(`${who}: ${status}`, async () => {
      const { email, idToken } = await signingIn()
      expect((await exchange(email, idToken)).status).toBe(status)
      await check(email)
    })
  }
})
