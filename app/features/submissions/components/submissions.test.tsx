import 'fake-indexeddb/auto'
import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { gzipSync } from 'node:zlib'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Submission } from '../../../../contract/submissions'
import { readSubmissionDraft } from '../../../lib/local-data/submission-drafts'
import { TINY_LOTTIE } from '../../../test/fixtures'
import { playedLotties } from '../../../test/lottie-player-fake'
import { server } from '../../../test/msw-server'
import { resetOfflineData } from '../../../test/offline-data'
import { renderWithProviders } from '../../../test/render-with-providers'
import { signInForTest } from '../../../test/session'
import { makeSubmission } from '../../../test/submission-fixtures'
import { MySubmissions } from './my-submissions'
import { ReviewQueue } from './review-queue'
import { SubmitStickerPage } from './submission-pages'

const USER = { email: 'ada@example.com', name: 'Ada Lovelace', emailVerified: true }
const tgs = () => new File([gzipSync(JSON.stringify({ ...TINY_LOTTIE, nm: 'from tgs' }))], 'wave.tgs')
const fileInput = () => screen.findByTestId('sticker-file')

beforeEach(async () => {
  signInForTest({ email: USER.email, name: USER.name })
  await resetOfflineData()
  server.use(http.get('/api/files/:id/:name', () => HttpResponse.json(TINY_LOTTIE)))
})

/** What POST /api/submissions received, as the server's multipart parser sees it. */
function acceptSubmissions() {
  const sent: FormData[] = []
  server.use(
    http.post('/api/submissions', async ({ request }) => {
      sent.push(await request.formData())
      return HttpResponse.json({ id: 'f'.repeat(24) }, { status: 201 })
    }),
  )
  return sent
}

describe('Submit a sticker', () => {
  it('plays the picked .tgs at once, and sends its file with every field as multipart', async () => {
    const sent = acceptSubmissions()
    let done = false
    const { user } = renderWithProviders(<SubmitStickerPage user={USER} onSent={() => (done = true)} />)

    await user.upload(await fileInput(), tgs())
    await waitFor(() => expect(playedLotties.at(-1)?.data).toMatchObject({ nm: 'from tgs' }))
    expect(screen.getByRole('status')).toHaveTextContent('wave.tgs plays as shown')

    await user.type(screen.getByLabelText('Animation name*'), 'Waving Ada')
    await user.type(screen.getByLabelText('Animation description*'), 'A friendly wave')
    await user.click(screen.getByRole('button', { name: /^Add (emoji|more)$/ }))
    await user.type(await screen.findByRole('textbox', { name: 'Search emoji' }), 'wave')
    await user.click(within(screen.getByRole('group', { name: 'Matching emoji' })).getByRole('button', { name: 'waving hand' }))
    await user.click(screen.getByRole('radio', { name: 'I made this' }))
    await user.click(screen.getByRole('radio', { name: /CC BY 4\.0/ }))
    await user.click(screen.getByRole('switch', { name: /Sensitive/ }))
    await user.click(screen.getByRole('button', { name: 'Send for review' }))

    await waitFor(() => expect(done).toBe(true))
    const form = sent[0]!
    expect(Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === 'string'))).toEqual({
      name: 'Waving Ada',
      description: 'A friendly wave',
      emoji: '👋',
      licence: 'CC-BY-4.0',
      credit: 'Ada Lovelace',
      source: '',
      original: 'true',
      sensitive: 'true',
    })
    const file = form.get('file') as File
    expect(file.name).toBe('wave.tgs')
    expect(new Uint8Array(await file.arrayBuffer()).subarray(0, 2)).toEqual(new Uint8Array([0x1f, 0x8b]))
    // Sent: the draft is gone.
    expect(await readSubmissionDraft(USER.email)).toBeUndefined()
  })

  it('says what is wrong beside each field before sending, and what is wrong with a file that is not a sticker', async () => {
    const sent = acceptSubmissions()
    const { user } = renderWithProviders(<SubmitStickerPage user={USER} onSent={() => {}} />)
    await user.click(await screen.findByRole('radio', { name: 'Made by someone else' }))
    await user.clear(screen.getByLabelText('Credit*'))
    await user.click(screen.getByRole('button', { name: 'Send for review' }))

    expect(await screen.findByText('Choose a Lottie JSON, .tgs or .lottie file')).toBeInTheDocument()
    expect(screen.getByText('Pick 1 to 3 emoji')).toBeInTheDocument()
    expect(screen.getByText('Say who made it, as they should be credited')).toBeInTheDocument()

    await user.upload(await fileInput(), new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'wave.png'))
    expect(await screen.findByText('This is not a Lottie JSON, a .tgs or a .lottie file')).toBeInTheDocument()
    expect(sent).toEqual([])
  })

  it('keeps the form and the picked file on this device, so a reload brings them back', async () => {
    const first = renderWithProviders(<SubmitStickerPage user={USER} onSent={() => {}} />)
    await first.user.upload(await fileInput(), tgs())
    await first.user.type(screen.getByLabelText('Animation name*'), 'Half written')
    await waitFor(async () => expect((await readSubmissionDraft<{ name: string }>(USER.email))?.fields.name).toBe('Half written'))
    first.unmount()
    playedLotties.length = 0

    renderWithProviders(<SubmitStickerPage user={USER} onSent={() => {}} />)
    await waitFor(() => expect(screen.getByLabelText('Animation name*')).toHaveValue('Half written'))
    await waitFor(() => expect(playedLotties.at(-1)?.data).toMatchObject({ nm: 'from tgs' }))
  })

  it('asks for a verified email first', async () => {
    renderWithProviders(<SubmitStickerPage user={{ ...USER, emailVerified: false }} onSent={() => {}} />)
    expect(await screen.findByText('Verify your email address first')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Send for review' })).not.toBeInTheDocument()
  })
})

function mySubmissions(items: Submission[]) {
  server.use(http.get('/api/me/submissions', () => HttpResponse.json(items, { headers: { 'X-Total-Count': String(items.length) } })))
}

describe('My submissions', () => {
  it('shows where each stands, the reviewer’s note, and what can be done with it', async () => {
    mySubmissions([
      makeSubmission(1, { name: 'Waiting one' }),
      makeSubmission(2, { name: 'Sent back', state: 'changes', note: 'Make the tail shorter' }),
      makeSubmission(3, { name: 'Not this', state: 'refused', note: 'Not a wumpus' }),
      makeSubmission(4, { name: 'In the gallery', state: 'published', wumpusId: 'b'.repeat(24), lottie: undefined }),
    ])
    renderWithProviders(<MySubmissions emailVerified />)
    const list = await screen.findByRole('list', { name: 'My submissions' })

    const waiting = within(list).getByRole('listitem', { name: 'Waiting one' })
    expect(waiting).toHaveTextContent('Waiting for review')
    expect(within(waiting).getByRole('link', { name: 'Edit' })).toHaveAttribute('href', `/dashboard/submissions/${makeSubmission(1).id}`)
    const back = within(list).getByRole('listitem', { name: 'Sent back' })
    expect(back).toHaveTextContent('Changes asked')
    expect(back).toHaveTextContent('From the reviewer: Make the tail shorter')
    expect(within(back).getByRole('link', { name: 'Edit and send again' })).toBeInTheDocument()
    const refused = within(list).getByRole('listitem', { name: 'Not this' })
    expect(refused).toHaveTextContent('Why it was refused: Not a wumpus')
    expect(within(refused).queryByRole('button', { name: 'Withdraw' })).not.toBeInTheDocument()
    const published = within(list).getByRole('listitem', { name: 'In the gallery' })
    expect(published).toHaveTextContent('Its animation is in the gallery now')
    expect(within(published).getByRole('link', { name: 'View in the gallery' })).toHaveAttribute('href', `/wumpus/${'b'.repeat(24)}`)
    expect(screen.getByRole('link', { name: 'Submit a sticker' })).toHaveAttribute('href', '/dashboard/submissions/new')
  })

  it('withdraws one after asking, and the list follows', async () => {
    let items = [makeSubmission(1, { name: 'Waiting one' })]
    server.use(
      http.get('/api/me/submissions', () => HttpResponse.json(items)),
      http.delete('/api/submissions/:id', ({ params }) => {
        items = items.filter((item) => item.id !== params.id)
        return new HttpResponse(null, { status: 204 })
      }),
    )
    const { user } = renderWithProviders(<MySubmissions emailVerified />)
    await user.click(await screen.findByRole('button', { name: 'Withdraw' }))
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw Waiting one?' })
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw' }))
    expect(await screen.findByText(/Nothing sent yet/)).toBeInTheDocument()
  })
})

describe('Review submissions', () => {
  it('publishes one, and asks for a note before sending one back', async () => {
    const decisions: unknown[] = []
    server.use(
      http.get('/api/submissions', () =>
        HttpResponse.json([makeSubmission(1, { name: 'Waving Ada', source: 'https://example.com/wave' })]),
      ),
      http.post('/api/submissions/:id/decision', async ({ request, params }) => {
        decisions.push({ id: params.id, ...((await request.json()) as object) })
        return new HttpResponse(null, { status: 204 })
      }),
    )
    const { user } = renderWithProviders(<ReviewQueue state="waiting" onStateChange={() => {}} />)
    const item = await screen.findByRole('listitem', { name: 'Waving Ada' })
    expect(item).toHaveTextContent('From Ada (ada@example.com)')
    expect(item).toHaveTextContent('Made by the submitter, credited as Ada · CC BY 4.0 (credit the maker)')
    expect(within(item).getByRole('link', { name: 'Source: https://example.com/wave' })).toBeInTheDocument()

    await user.click(within(item).getByRole('button', { name: 'Ask for changes' }))
    expect(await within(item).findByText('Say what to change, or why it is refused')).toBeInTheDocument()
    expect(decisions).toEqual([])
    await user.type(within(item).getByLabelText('Note to the maker'), 'Shorter, please')
    await user.click(within(item).getByRole('button', { name: 'Ask for changes' }))
    await user.click(within(item).getByRole('button', { name: 'Publish' }))
    await waitFor(() => expect(decisions).toHaveLength(2))
    expect(decisions).toEqual([
      { id: makeSubmission(1).id, decision: 'changes', note: 'Shorter, please' },
      { id: makeSubmission(1).id, decision: 'publish', note: 'Shorter, please' },
    ])
  })

  it('shows the submitter’s other submissions and the open reports against their stickers once the section is opened', async () => {
    const asked: string[] = []
    server.use(
      http.get('/api/submissions', () => HttpResponse.json([makeSubmission(1, { name: 'Waving Ada' })])),
      http.get('/api/submissions/:id/submitter', ({ params }) => {
        asked.push(String(params.id))
        return HttpResponse.json({
          u_email: 'ada@example.com',
          u_name: 'Ada',
          counts: { waiting: 2, changes: 0, refused: 1, published: 1 },
          recent: [
            {
              id: 'c'.repeat(24),
              name: 'Jumping Ada',
              state: 'published',
              wumpusId: 'b'.repeat(24),
              createdAt: '2026-11-30T10:00:00.000Z',
            },
            { id: 'd'.repeat(24), name: 'Shouting Ada', state: 'refused', createdAt: '2026-11-29T10:00:00.000Z' },
          ],
          reports: { open: 3, stickers: 1 },
        })
      }),
    )
    const { user } = renderWithProviders(<ReviewQueue state="waiting" onStateChange={() => {}} />)
    const item = await screen.findByRole('listitem', { name: 'Waving Ada' })
    // Nothing is loaded until the reviewer opens it.
    const toggle = within(item).getByRole('button', { name: 'Ada’s other submissions and reports' })
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    expect(asked).toEqual([])

    await user.click(toggle)
    const history = await within(item).findByRole('region', { name: 'Ada’s history' })
    expect(await within(history).findByText('Submissions: 2 waiting · 1 refused · 1 published')).toBeInTheDocument()
    expect(history).toHaveTextContent('3 open reports against one of their stickers')
    const latest = within(history).getByRole('list', { name: 'Their latest other submissions' })
    expect(within(latest).getByRole('link', { name: 'Jumping Ada' })).toHaveAttribute('href', `/wumpus/${'b'.repeat(24)}`)
    expect(within(latest).queryByRole('link', { name: 'Shouting Ada' })).not.toBeInTheDocument()
    expect(latest).toHaveTextContent('Shouting AdaRefused')
    expect(asked).toEqual([makeSubmission(1).id])
  })

  it('shows, once opened, whether each app’s file fits as far as the server judges it without rendering', async () => {
    server.use(
      http.get('/api/submissions', () => HttpResponse.json([makeSubmission(1, { name: 'Waving Ada' })])),
      http.get('/api/submissions/:id/fit', () =>
        HttpResponse.json([
          { platform: 'discord', label: 'Discord', fits: null, notes: ['Its APNG is rendered on publish; its size is checked then'] },
          { platform: 'telegram', label: 'Telegram', fits: true, notes: [], bytes: 2048 },
          { platform: 'whatsapp', label: 'WhatsApp', fits: false, notes: ['The animation runs 11 s; WhatsApp allows 10 s'] },
        ]),
      ),
    )
    const { user } = renderWithProviders(<ReviewQueue state="waiting" onStateChange={() => {}} />)
    const item = await screen.findByRole('listitem', { name: 'Waving Ada' })
    await user.click(within(item).getByRole('button', { name: 'Files it would make' }))
    const apps = await within(item).findByRole('list', { name: 'Each app’s file' })
    const rows = within(apps)
      .getAllByRole('listitem')
      .map((row) => row.textContent)
    expect(rows).toEqual([
      'Discord: checked on publish',
      'Telegram: fits (2.0 KB)',
      'WhatsApp: does not fit (The animation runs 11 s; WhatsApp allows 10 s)',
    ])
    expect(within(item).getByRole('region', { name: 'Files it would make' })).toHaveTextContent('Judged from the Lottie without rendering')
  })
})
