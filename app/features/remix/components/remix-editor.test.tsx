import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { ColourChoices, Recipe } from '../../../../contract/remix/recipe'
import { wumpusDetailHandler } from '../../../test/api-handlers'
import { makeWumpus } from '../../../test/fixtures'
import { playedLotties } from '../../../test/lottie-player-fake'
import { server } from '../../../test/msw-server'
import { renderApp } from '../../../test/render-app'
import { signInForTest } from '../../../test/session'

// The real caption fonts, read from disk (the browser fetches the same files).
vi.mock('../caption-font', async () => {
  const { CAPTION_FONT_FILES, captionFontFrom } = await import('../../../../contract/remix/caption-font')
  const { parse } = await import('opentype.js')
  const font = captionFontFrom(
    CAPTION_FONT_FILES.map((file) => {
      const bytes = readFileSync(createRequire(import.meta.url).resolve(file))
      return parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
    }),
  )
  return { captionFontQueryOptions: () => ({ queryKey: ['caption-font'], queryFn: async () => font, staleTime: Infinity }) }
})

const BLUE = [0x8c / 255, 0x9e / 255, 1, 1]
/** One blue square on a 100 px canvas: one colour slot. */
const LOTTIE = {
  v: '5.7.0',
  fr: 30,
  ip: 0,
  op: 30,
  w: 100,
  h: 100,
  layers: [
    {
      ty: 4,
      ip: 0,
      op: 30,
      ks: {},
      shapes: [
        { ty: 'rc', s: { a: 0, k: [80, 80] }, p: { a: 0, k: [50, 50] }, r: { a: 0, k: 0 } },
        { ty: 'fl', c: { a: 0, k: BLUE }, o: { a: 0, k: 100 } },
      ],
    },
  ],
}
const original = makeWumpus(7, { name: 'Happy Wumpus', lottie: '/api/files/cccccccccccccccccccc0007/happy.json' })
const choices: ColourChoices = {
  slots: [
    { id: '8c9eff', colour: '#8c9eff', share: 0.8 },
    { id: '1b1530', colour: '#1b1530', share: 0.2 },
  ],
  presets: [{ id: 'mono', name: 'Mono', colours: { '8c9eff': '#a0a0a0', '1b1530': '#1b1b1b' } }],
}
const editorPath = `/wumpus/${original._id}/remix`

function renderEditor(search = '') {
  const view = renderApp(editorPath + search)
  const search_ = () => view.router.state.location.search as Record<string, unknown>
  return { ...view, search: search_ }
}

const lastPlayed = () => playedLotties[playedLotties.length - 1]?.data as typeof LOTTIE | undefined

describe('remix editor', () => {
  beforeEach(() => {
    signInForTest()
    server.use(
      wumpusDetailHandler([original]),
      http.get(`/api/wumpus/${original._id}/colours`, () => HttpResponse.json(choices)),
      http.get(original.lottie, () => HttpResponse.json(LOTTIE)),
      // The remix's page, once made, shows its heart.
      http.get('/api/me/favourite-ids', () => HttpResponse.json([])),
    )
  })

  it('shows the slots as labelled colour pickers; a new colour goes to the address and the preview, Undo and Reset take it back', async () => {
    const { search, user } = renderEditor()
    const first = await screen.findByLabelText('Colour 1: #8c9eff')
    expect(screen.getByLabelText('Colour 2: #1b1530')).toHaveAttribute('type', 'color')
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Preview: as the original.'))

    fireEvent.input(first, { target: { value: '#ff0000' } })
    await waitFor(() => expect(search().c).toBe('8c9eff-ff0000'))
    expect(screen.getByLabelText('Colour 1: #ff0000')).toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent('Preview: 1 colour changed.')
    // The preview plays the recipe applied to the original: its fill is now red.
    await waitFor(() => expect(lastPlayed()?.layers[0]?.shapes[1]).toMatchObject({ c: { k: [1, 0, 0, 1] } }))

    await user.click(screen.getByRole('button', { name: 'Undo' }))
    await waitFor(() => expect(search().c).toBeUndefined())
    expect(screen.getByLabelText('Colour 1: #8c9eff')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Undo' })).toBeDisabled()

    await user.click(screen.getByRole('button', { name: 'Mono' }))
    await waitFor(() => expect(search().c).toBe('8c9eff-a0a0a0.1b1530-1b1b1b'))
    await user.click(screen.getByRole('button', { name: 'Reset' }))
    await waitFor(() => expect(search().c).toBeUndefined())
    expect(screen.getByRole('button', { name: 'Reset' })).toBeDisabled()
    // Reset is a step too: Undo brings the preset back, also with Ctrl+Z.
    await user.keyboard('{Control>}z{/Control}')
    await waitFor(() => expect(search().c).toBe('8c9eff-a0a0a0.1b1530-1b1b1b'))
  })

  it('counts the caption, keeps it in the address without an entry per key, and draws it as paths in the preview', async () => {
    const { search, user, router } = renderEditor()
    const caption = await screen.findByRole('textbox', { name: 'Caption text' })
    expect(screen.getByText('0/40 characters')).toBeInTheDocument()
    const entries = router.history.length

    await user.type(caption, 'Good morning')
    expect(screen.getByText('12/40 characters')).toBeInTheDocument()
    expect(caption).toHaveValue('Good morning')
    await waitFor(() => expect(search()).toMatchObject({ t: 'Good morning', tp: 'bottom' }))
    expect(router.history.length).toBe(entries)
    expect(caption).toHaveAttribute('maxlength', '40')

    await user.click(screen.getByRole('radio', { name: 'Top' }))
    await waitFor(() => expect(search().tp).toBe('top'))
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('caption “Good morning” at the top'))
    // A layer of its own with the text as shapes: no text layer.
    await waitFor(() => expect(lastPlayed()?.layers.length).toBe(2))
    expect(lastPlayed()?.layers.some((layer) => layer.ty === 5)).toBe(false)

    // One Undo takes back the typing and the position change one at a time.
    await user.click(screen.getByRole('button', { name: 'Undo' }))
    await waitFor(() => expect(search().tp).toBe('bottom'))
    await user.click(screen.getByRole('button', { name: 'Undo' }))
    await waitFor(() => expect(search().t).toBeUndefined())
    expect(caption).toHaveValue('')
  })

  it('offers three outline choices, the chat apps’ recommendation first, and a preview switch for the outlined file', async () => {
    const { search, user } = renderEditor()
    const outline = await screen.findByRole('radiogroup', { name: 'White outline' })
    expect(within(outline).getByRole('radio', { name: 'Where the chat app recommends it (WhatsApp, Telegram)' })).toBeChecked()
    const preview = screen.getByRole('switch', { name: 'Show the file with outline' })
    expect(preview).not.toBeChecked()
    await user.click(preview)
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('white outline'))
    expect(search().o).toBeUndefined()

    await user.click(within(outline).getByRole('radio', { name: 'On every file' }))
    await waitFor(() => expect(search().o).toBe(1))
    expect(preview).toBeChecked()
    expect(preview).toBeDisabled()
    await user.click(within(outline).getByRole('radio', { name: 'Off' }))
    await waitFor(() => expect(search().o).toBe(0))
    expect(preview).not.toBeChecked()
  })

  it('opens a shared address with its recipe: colours, caption, speed and mirror', async () => {
    renderEditor('?c=8c9eff-00ff00&t=Hi&tp=top&s=1.5&m=1')
    expect(await screen.findByLabelText('Colour 1: #00ff00')).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Caption text' })).toHaveValue('Hi')
    expect(screen.getByRole('radio', { name: 'Top' })).toBeChecked()
    expect(screen.getByRole('slider', { name: 'Speed' })).toHaveAttribute('aria-valuetext', '1.5x')
    expect(screen.getByText('1.5x', { selector: 'p' })).toBeInTheDocument()
    expect(screen.getByRole('switch', { name: 'Mirror (flip left to right)' })).toBeChecked()
  })

  it('sends the recipe, says so while it works, then opens the remix', async () => {
    let sent: Recipe | undefined
    let answer: () => void = () => {}
    const remix = makeWumpus(8, { name: 'Happy Wumpus', remixOf: original._id, visibility: 'private', u_email: 'ada@example.com' })
    server.use(
      http.post(`/api/wumpus/${original._id}/remix`, async ({ request }) => {
        sent = (await request.json()) as Recipe
        await new Promise<void>((resolve) => (answer = resolve))
        return HttpResponse.json({ id: remix._id }, { status: 201 })
      }),
      wumpusDetailHandler([original, remix]),
    )
    const { user, router } = renderEditor('?c=8c9eff-ff0000&m=1')
    await user.click(await screen.findByRole('button', { name: 'Make my stickers' }))
    expect(await screen.findByRole('button', { name: 'Making your stickers…' })).toBeDisabled()
    // Named as a remix unless its maker says otherwise.
    expect(sent).toEqual({ colours: { '8c9eff': '#ff0000' }, mirror: true, name: 'Happy Wumpus, your version' })
    answer()
    await waitFor(() => expect(router.state.location.pathname).toBe(`/wumpus/${remix._id}`))
    expect(await screen.findByText(/Your version of/)).toHaveTextContent('Your version of Happy Wumpus')
  })

  it.each([
    [409, { code: 'CONFLICT', message: 'Too many remixes', details: { reason: 'remixes-full' } }, 'You have 50 remixes'],
    [
      400,
      { code: 'BAD_REQUEST', message: 'Arabic script is not supported yet.', details: { reason: 'caption-characters' } },
      'Arabic script is not supported yet.',
    ],
    [503, { code: 'SERVER_BUSY', message: 'Busy', details: { retryAfterSeconds: 30 } }, 'Try again in 30 seconds'],
    [400, { code: 'BAD_REQUEST', message: 'The edit is too complex for a sticker', details: [] }, 'The edit is too complex for a sticker'],
  ])('says why the server refused (%i) in an alert', async (status, error, words) => {
    server.use(http.post(`/api/wumpus/${original._id}/remix`, () => HttpResponse.json({ error }, { status })))
    const { user } = renderEditor('?m=1')
    await user.click(await screen.findByRole('button', { name: 'Make my stickers' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(words)
    expect(screen.getByRole('button', { name: 'Make my stickers' })).toBeEnabled()
  })

  it('takes Greek and Cyrillic captions, and refuses other scripts and emoji while they are typed, saying why', async () => {
    const { user } = renderEditor()
    const caption = await screen.findByRole('textbox', { name: 'Caption text' })
    const make = () => screen.getByRole('button', { name: 'Make my stickers' })

    await user.type(caption, 'Привет κόσμε')
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('caption “Привет κόσμε” at the bottom'))
    expect(caption).not.toHaveAttribute('aria-invalid', 'true')
    expect(make()).toBeEnabled()

    await user.clear(caption)
    await user.type(caption, 'مرحبا')
    expect(await screen.findByText(/^Arabic script is not supported yet\./)).toHaveTextContent(
      'Arabic script is not supported yet. Captions take Latin, Greek and Cyrillic letters, digits and punctuation.',
    )
    expect(caption).toHaveAttribute('aria-invalid', 'true')
    expect(make()).toBeDisabled()

    await user.clear(caption)
    await user.click(caption)
    await user.paste('gm 👋')
    expect(await screen.findByText(/^Emoji cannot be drawn in a caption yet\./)).toBeInTheDocument()
    expect(make()).toBeDisabled()
    await user.type(caption, '{Backspace}{Backspace}')
    await waitFor(() => expect(caption).not.toHaveAttribute('aria-invalid', 'true'))
    expect(make()).toBeEnabled()
  })

  it('names the remix after its original, and takes another name from its maker', async () => {
    let sent: { name?: string } | undefined
    server.use(
      http.post(`/api/wumpus/${original._id}/remix`, async ({ request }) => {
        sent = (await request.json()) as { name?: string }
        return HttpResponse.json({ error: { code: 'SERVER_BUSY', message: 'Busy', details: {} } }, { status: 503 })
      }),
    )
    const { user } = renderEditor()
    const name = await screen.findByRole('textbox', { name: 'Name of your version' })
    expect(name).toHaveValue('Happy Wumpus, your version')
    await user.clear(name)
    await user.type(name, 'x')
    expect(screen.getByText('A name has at least 3 characters')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Make my stickers' })).toBeDisabled()
    await user.type(name, 'oxo in pink')
    await user.click(screen.getByRole('button', { name: 'Make my stickers' }))
    await screen.findByRole('alert')
    expect(sent?.name).toBe('xoxo in pink')
  })

  it('asks for a verified email first', async () => {
    signInForTest({ email_verified: false })
    renderEditor()
    expect(await screen.findByText('Verify your email address first')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Make my stickers' })).not.toBeInTheDocument()
  })
})
