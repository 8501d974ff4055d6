// npm run bench:telegram — an admin's "Make Telegram set" on a public pack, through the real server against the
// Bot API stand-in (backend/test/support/telegram-bot-api.ts) answering 429 (retry_after 1 s) to every tenth
// call: the time from POST /api/packs/{id}/telegram to GET /api/packs/{id} saying ready, the Bot API calls
// (and 429s) it took, and the bytes of sticker files uploaded per sticker, for a 30-sticker pack and a
// 120-sticker one (50 with the create, 70 adds). The stickers' files are the demo mascots' real Telegram
// files (rendered first, about a minute), each pack's stickers copies of them.
// Issue 36, a personal pack: its owner's POST answers 409 with the bot's start link; the owner "presses Start"
// (the stand-in gives the poller `/start <code>`), and the time from then to the set ready is measured; then,
// linked, "Add to Telegram" on a second 30-sticker personal pack to the set ready.
// Each pack's custom emoji set (the mascots' Telegram emoji files) is made beside its sticker set, by the same
// bot: a line of its own gives the time from the POST to it ready, and its files; the calls counted are both sets'.
import { packPath, packTelegramPath } from '../contract/api-paths'
import { packDetailSchema } from '../contract/pack'
import { startBotApiStandIn } from '../backend/test/support/telegram-bot-api'
import { sessionTokenFor } from './support/bench-server'
import { startPlatformBench } from './support/platform-bench'

const ADMIN = { email: 'bench-admin@example.com', name: 'Bench Admin' }
const OWNER_ID = 4242
const bot = await startBotApiStandIn({ owners: [OWNER_ID], rateLimit: { every: 10, retryAfter: 1 } })
const platform = await startPlatformBench(
  'telegram',
  { TELEGRAM_BOT_TOKEN: bot.token, TELEGRAM_SET_OWNER_ID: String(OWNER_ID), TELEGRAM_API_URL: bot.url },
  'telegram',
  ADMIN,
  ['telegram-emoji'],
)
const { bench, deps, url } = platform
deps.telegram!.start()
deps.telegramLinks!.start()

const token = await sessionTokenFor(bench, ADMIN.email, ADMIN.name, 'admin')

/** A pack of `count` stickers; a personal one (shared by link) when `personalOwner` is given. */
const makePack = (count: number, personalOwner?: string) =>
  platform.makePack(count, personalOwner ? { createdBy: personalOwner, visibility: 'link' } : {})

async function measure(
  count: number,
  as: { token: string; label: string; pack?: string; owner?: string } = { token, label: '' },
): Promise<void> {
  const id = as.pack ?? (await makePack(count, as.owner))
  const callsBefore = bot.calls.length
  const started = performance.now()
  if (!as.pack) {
    const asked = await fetch(url + packTelegramPath(id), { method: 'POST', headers: { authorization: `Bearer ${as.token}` } })
    if (asked.status !== 202) throw new Error(`POST answered ${asked.status}: ${await asked.text()}`)
  }
  let ms: number | undefined
  let emojiMs: number | undefined
  while (ms === undefined || emojiMs === undefined) {
    const { telegram } = packDetailSchema.parse(
      await (await fetch(url + packPath(id), { headers: { authorization: `Bearer ${as.token}` } })).json(),
    )
    if (telegram?.state === 'failed') throw new Error(`failed: ${telegram.reason}`)
    if (telegram?.emoji?.state === 'failed') throw new Error(`the emoji set failed: ${telegram.emoji.reason}`)
    if (ms === undefined && telegram?.state === 'ready') ms = performance.now() - started
    if (emojiMs === undefined && telegram?.emoji?.state === 'ready') emojiMs = performance.now() - started
    if (ms === undefined || emojiMs === undefined) await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const calls = bot.calls.slice(callsBefore)
  const sent = calls.filter((c) => c.error === undefined && c.files > 0)
  const of = (type: string) => [...bot.sets.values()].find((s) => s.name.includes(id) && s.sticker_type === type)!
  const line = (set: ReturnType<typeof of>) => {
    const bytes = set.stickers.map((s) => s.bytes)
    const total = bytes.reduce((n, b) => n + b, 0)
    return `${set.stickers.length} in the set, ${Math.round(total / bytes.length)} B each on average (${Math.min(...bytes)}-${Math.max(...bytes)} B)`
  }
  console.log(
    `${as.label}${count} stickers: ready in ${(ms / 1000).toFixed(2)} s; ${calls.length} Bot API calls for both sets (${calls.filter((c) => c.error === 429).length} answered 429); ` +
      `${sent.reduce((n, c) => n + c.files, 0)} files uploaded; sticker set: ${line(of('regular'))}`,
  )
  console.log(`  its custom emoji set: ready in ${(emojiMs / 1000).toFixed(2)} s; ${line(of('custom_emoji'))}`)
}

/** Issue 36: a personal pack's set, its owner linking Telegram first, then a second one once linked. */
async function measurePersonal(): Promise<void> {
  const email = 'bench-owner@example.com'
  const owner = await sessionTokenFor(bench, email, 'Bench Owner')
  const first = await makePack(30, email)
  const asked = await fetch(url + packTelegramPath(first), { method: 'POST', headers: { authorization: `Bearer ${owner}` } })
  const body = (await asked.json()) as { error?: { details?: { startUrl?: string } } }
  const start = body.error?.details?.startUrl
  if (asked.status !== 409 || !start) throw new Error(`POST answered ${asked.status}: ${JSON.stringify(body)}`)
  bot.userSends(OWNER_ID + 1, `/start ${new URL(start).searchParams.get('start')}`)
  await measure(30, { token: owner, label: 'personal, from pressing Start (link, then the set): ', pack: first })
  await measure(30, { token: owner, label: 'personal, linked, from Add to Telegram: ', owner: email })
}

try {
  await measure(30)
  await measure(120)
  await measurePersonal()
} finally {
  await platform.close([deps.telegram!, deps.telegramLinks!])
  await bot.close()
}
