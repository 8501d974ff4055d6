// npm run bench:discord — "Add to my Discord server" on a 30-sticker pack, through the real server against the
// Discord stand-in (backend/test/support/discord-api.ts) with a free (tier 0: 5 sticker slots) server, and then a
// tier-3 one (60 slots), answering
// 429 (retry_after 1 s) to every tenth call: the time from the button's POST /api/packs/{id}/discord, through
// the 302 to the authorize page and the callback, to GET /api/discord/uploads/{job} saying done; the Discord
// calls (and 429s) it took; and the bytes uploaded per sticker. The stickers' files are the demo mascots' real
// Discord APNGs (rendered first, about a minute), each pack's stickers copies of them.
import { discordTicketSchema, discordUploadSchema } from '../contract/discord'
import { startDiscordStandIn } from '../backend/test/support/discord-api'
import { sessionTokenFor } from './support/bench-server'
import { startPlatformBench } from './support/platform-bench'

const PERSON = { email: 'bench-person@example.com', name: 'Bench Person' }
const GUILD = '1096000000000000002'
/** A tier-3 server (60 slots), where all 30 go and the 429s fall among the uploads. */
const BOOSTED = '1096000000000000003'
const discord = await startDiscordStandIn({
  guilds: [
    { id: GUILD, premium_tier: 0 },
    { id: BOOSTED, premium_tier: 3 },
  ],
  rateLimit: { every: 10, retryAfter: 1 },
})
const platform = await startPlatformBench(
  'discord',
  {
    DISCORD_CLIENT_ID: discord.clientId,
    DISCORD_CLIENT_SECRET: discord.clientSecret,
    DISCORD_BOT_TOKEN: discord.botToken,
    DISCORD_API_URL: discord.apiUrl,
    DISCORD_AUTHORIZE_URL: discord.authorizeUrl,
  },
  'discord',
  PERSON,
)
const { deps, url, makePack } = platform
deps.discord!.start()
const token = await sessionTokenFor(platform.bench, PERSON.email, PERSON.name)

const location = async (to: string) => {
  const res = await fetch(to, { redirect: 'manual' })
  if (res.status !== 302) throw new Error(`${to} answered ${res.status}: ${await res.text()}`)
  return new URL(res.headers.get('location')!, url).href
}

async function measure(count: number, guild: string): Promise<void> {
  discord.pick = guild
  const tier = discord.guilds.get(guild)!.premium_tier
  const id = await makePack(count)
  const callsBefore = discord.calls.length
  const started = performance.now()
  const asked = await fetch(`${url}/api/packs/${id}/discord`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })
  const { url: ticketUrl } = discordTicketSchema.parse(await asked.json())
  const back = await location(await location(await location(url + ticketUrl)))
  const jobId = new URL(back).searchParams.get('discord')
  if (!jobId) throw new Error(`no job: ${back}`)
  let job
  for (;;) {
    job = discordUploadSchema.parse(
      await (await fetch(`${url}/api/discord/uploads/${jobId}`, { headers: { authorization: `Bearer ${token}` } })).json(),
    )
    if (job.state === 'done' || job.state === 'failed') break
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const ms = performance.now() - started
  const calls = discord.calls.slice(callsBefore)
  const uploads = calls.filter((c) => c.method === 'POST' && c.path.endsWith('/stickers') && c.status === 200)
  const bytes = uploads.map((c) => c.fileBytes)
  console.log(
    `${count} stickers on a tier-${tier} server: ${job.state} in ${(ms / 1000).toFixed(2)} s; ${calls.length} Discord calls ` +
      `(${calls.filter((c) => c.status === 429).length} answered 429); ${job.uploaded.length} uploaded, ${job.notFitted.length} did not fit; ` +
      `${Math.round(bytes.reduce((a, b) => a + b, 0) / bytes.length)} B per sticker on average (${Math.min(...bytes)}-${Math.max(...bytes)} B)`,
  )
}

try {
  await measure(30, GUILD)
  await measure(30, BOOSTED)
} finally {
  await platform.close([deps.discord!])
  await discord.close()
}
