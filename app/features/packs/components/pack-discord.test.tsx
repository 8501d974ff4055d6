import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it } from 'vitest'
import type { DiscordUpload } from '../../../../contract/discord'
import { server } from '../../../test/msw-server'
import { renderWithProviders } from '../../../test/render-with-providers'
import { signInForTest } from '../../../test/session'
import { PackDiscord } from './pack-discord'
import { clientConfigQueryOptions } from '../../../lib/client-config'

const PACK = 'a'.repeat(24)
const JOB = 'b'.repeat(24)
const config = (discord: boolean) =>
  http.get('/api/config', () => HttpResponse.json({ firebase: { apiKey: 'k', authDomain: 'd', projectId: 'demo-wumpus' }, discord }))
const job = (overrides: Partial<DiscordUpload>): DiscordUpload => ({
  id: JOB,
  packId: PACK,
  state: 'uploading',
  uploaded: [],
  notFitted: [],
  ...overrides,
})

afterEach(() => {
  localStorage.clear()
  window.history.replaceState({}, '', '/')
})

describe('Add to my Discord server', () => {
  it('is absent while the server has Discord off', async () => {
    signInForTest({ email: 'ann@example.com' })
    let asked = 0
    server.use(
      http.get('/api/config', () => {
        asked++
        return HttpResponse.json({ firebase: { apiKey: 'k', authDomain: 'd', projectId: 'demo-wumpus' }, discord: false })
      }),
    )
    renderWithProviders(<PackDiscord packId={PACK} />)
    await expect.poll(() => asked).toBe(1)
    expect(screen.queryByRole('button', { name: 'Add to my Discord server' })).not.toBeInTheDocument()
  })

  it('asks for a ticket and goes to the address the server answers', async () => {
    signInForTest({ email: 'ann@example.com' })
    let posted = 0
    server.use(
      config(true),
      http.post(`/api/packs/${PACK}/discord`, () => {
        posted++
        return HttpResponse.json({ url: `/api/packs/${PACK}/discord?ticket=t.s` })
      }),
    )
    const went: string[] = []
    const { user } = renderWithProviders(<PackDiscord packId={PACK} go={(url) => went.push(url)} />)
    await user.click(await screen.findByRole('button', { name: 'Add to my Discord server' }))
    await expect.poll(() => went).toEqual([`/api/packs/${PACK}/discord?ticket=t.s`])
    expect(posted).toBe(1)
  })

  it('is absent for a signed-out visitor, whose server-rendered page asks the API nothing more', async () => {
    let asked = 0
    server.use(
      http.get('/api/config', () => {
        asked++
        return HttpResponse.json({ firebase: { apiKey: 'k', authDomain: 'd', projectId: 'demo-wumpus' }, discord: true })
      }),
    )
    const { queryClient } = renderWithProviders(<PackDiscord packId={PACK} go={() => expect.fail('went to Discord')} />)
    // Its config query is there, held back: it is never sent for a visitor.
    const query = () => queryClient.getQueryCache().find({ queryKey: clientConfigQueryOptions().queryKey })
    await waitFor(() => expect(query()).toBeDefined())
    expect(query()!.isDisabled()).toBe(true)
    expect(screen.queryByRole('heading', { name: 'Discord' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Add to my Discord server' })).not.toBeInTheDocument()
    expect(asked).toBe(0)
  })

  it('back from Discord, follows the upload and shows what was uploaded and what did not fit and why', async () => {
    signInForTest({ email: 'ann@example.com' })
    window.history.replaceState({}, '', `/packs/${PACK}?discord=${JOB}`)
    let answers = 0
    const item = (n: number) => ({ wumpusId: String(n).repeat(24).slice(0, 24), kind: 'sticker' as const, name: `Wave ${n}` })
    server.use(
      config(true),
      http.get(`/api/discord/uploads/${JOB}`, () => {
        answers++
        return HttpResponse.json(
          answers === 1
            ? job({ uploaded: [item(1)] })
            : job({
                state: 'done',
                stickerSlots: 5,
                uploaded: [1, 2, 3, 4, 5].map(item),
                notFitted: [{ ...item(6), reason: 'No sticker slot left: the server holds 5 of 5 (boost level 0)' }],
              }),
        )
      }),
    )
    renderWithProviders(<PackDiscord packId={PACK} />)
    expect(await screen.findByRole('status')).toHaveTextContent('Uploading to your Discord server… 1 sticker so far.')
    expect(await screen.findByText('Uploaded 5 stickers to your Discord server.', {}, { timeout: 5000 })).toBeInTheDocument()
    const notUploaded = screen.getByRole('list', { name: 'Not uploaded to Discord' })
    expect(within(notUploaded).getByRole('listitem')).toHaveTextContent(
      'Sticker “Wave 6”: No sticker slot left: the server holds 5 of 5 (boost level 0)',
    )
  })

  it('says why Discord’s way back made no upload', async () => {
    signInForTest({ email: 'ann@example.com' })
    window.history.replaceState({}, '', `/packs/${PACK}?discord_error=denied`)
    server.use(config(true))
    renderWithProviders(<PackDiscord packId={PACK} />)
    expect(await screen.findByRole('alert')).toHaveTextContent('Discord was not given the go-ahead, so nothing was added.')
  })
})
