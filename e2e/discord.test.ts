import { expect, inject, it } from 'vitest'
import { DEMO_ADMIN, signInToken, startSignedIn } from './support/accounts'
import { browserForTests } from './support/browser'

const baseURL = inject('baseURL')
const { openContext } = browserForTests(baseURL)

/** The server's stickers as the Discord stand-in holds them (what Discord would show). */
async function guildStickers(): Promise<Array<{ name: string }>> {
  const res = await fetch(`${inject('discordApiURL')}/guilds/${inject('discordGuild')}/stickers`, {
    headers: { Authorization: `Bot ${inject('discordBotToken')}` },
  })
  // The stand-in's every tenth call is a 429: ask again.
  if (res.status === 429) return guildStickers()
  return (await res.json()) as Array<{ name: string }>
}

it('a signed-in person fills their Discord server with a pack from its page, and sees what fitted', async () => {
  const [pack] = (await (await fetch(`${baseURL}/api/packs`)).json()) as { id: string; name: string }[]
  const { items } = (await (await fetch(`${baseURL}/api/packs/${pack!.id}`)).json()) as { items: Array<{ _id: string }> }
  // On a fresh server the demo stickers' Discord files are still being rendered: wait for them.
  await expect
    .poll(
      async () => {
        const states = await Promise.all(
          items.map(async (item) => {
            const files = (await (await fetch(`${baseURL}/api/wumpus/${item._id}/stickers`)).json()) as Array<{
              platform: string
              status: string
            }>
            return files.find((file) => file.platform === 'discord')?.status
          }),
        )
        return states.every((state) => state !== 'pending')
      },
      { timeout: 240_000, interval: 1000 },
    )
    .toBe(true)

  const context = await openContext()
  await startSignedIn(context, await signInToken(DEMO_ADMIN.email, DEMO_ADMIN.password))
  const page = await context.newPage()
  await page.goto(`/packs/${pack!.id}`)
  const started = Date.now()
  // The button, then the server's 302 to Discord's authorize page (the stand-in's picks the server at once,
  // as Discord does once the person has chosen), then the callback's 302 back to the pack's page.
  await page.getByRole('button', { name: 'Add to my Discord server' }).click()
  await page.waitForURL(new RegExp(`/packs/${pack!.id}\\?discord=[0-9a-f]{24}$`))
  const done = page.getByText(/^Uploaded \d+ stickers? (and \d+ emoji )?to your Discord server\.$/)
  await done.waitFor({ timeout: 120_000 })
  const uploaded = Number(/Uploaded (\d+)/.exec((await done.textContent())!)![1])
  console.log(`discord e2e: ${items.length}-sticker pack, ${uploaded} uploaded in ${Date.now() - started} ms from the tap`)

  const stickers = await guildStickers()
  expect(stickers).toHaveLength(uploaded)
  expect(uploaded).toBe(Math.min(5, items.length))
  if (items.length > 5) {
    const notUploaded = page.getByRole('list', { name: 'Not uploaded to Discord' })
    expect(await notUploaded.getByRole('listitem').count()).toBe(items.length - 5)
    expect(await notUploaded.getByRole('listitem').first().textContent()).toContain('No sticker slot left')
  }
  await context.close()
}, 300_000)
