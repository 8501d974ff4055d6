import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import {
  animationUploadHandler,
  apiError,
  createWumpusHandler,
  gate,
  lottieJsonHandler,
  lottieLinkHandler,
  makeUploadedFile,
  renderHandler,
} from '../../../test/admin-handlers'
import { stickersHandler, tagListHandler } from '../../../test/api-handlers'
import { makeStickers, makeWumpus } from '../../../test/fixtures'
import { server } from '../../../test/msw-server'
import { renderWithProviders } from '../../../test/render-with-providers'
import { wumpusKeys } from '../../../entities/wumpus/api'
import { AddWumpusPage } from './add-wumpus-page'

const file = (name: string, type: string) => new File([new Uint8Array([1, 2, 3])], name, { type })
const gifFile = () => file('mascot.gif', 'image/gif')
const pngFile = () => file('mascot.png', 'image/png')
const lottieFile = () => file('mascot.json', 'application/json')

const field = (label: string) => screen.getByLabelText(label)
const publish = () => screen.getByRole('button', { name: 'Publish' })
const tagsInput = () => screen.getByRole('combobox', { name: 'Tags' })

/** Opens the emoji picker and picks the first emoji found by a name, or pastes emoji and presses Enter. */
async function pickEmoji(user: ReturnType<typeof renderWithProviders>['user'], search: string, pick?: string) {
  if (!screen.queryByRole('textbox', { name: 'Search emoji' })) await user.click(screen.getByRole('button', { name: /^Add (emoji|more)$/ }))
  const input = await screen.findByRole('textbox', { name: 'Search emoji' })
  await user.clear(input)
  if (pick) {
    await user.type(input, search)
    await user.click(within(screen.getByRole('group', { name: 'Matching emoji' })).getByRole('button', { name: pick }))
  } else {
    await user.click(input)
    await user.paste(search)
    await user.keyboard('{Enter}')
  }
}

/** The error text Mantine links to an input. */
function errorOf(input: HTMLElement): string | null {
  const ids = (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean)
  const error = ids.map((id) => document.getElementById(id)).find((element) => element?.id.endsWith('-error'))
  return error?.textContent ?? null
}

/** FileInput renders a button labelled by its label; the hidden file input carries the test id. */
const fileButton = (label: string | RegExp) => screen.getByRole('button', { name: label })

async function setup() {
  const view = renderWithProviders(<AddWumpusPage />, { path: '/dashboard/addNew' })
  view.queryClient.setQueryData(wumpusKeys.lists(), { pages: [], pageParams: [] })
  await screen.findByRole('heading', { level: 1, name: 'Add animation' })
  return view
}

beforeEach(() => {
  server.use(lottieJsonHandler)
})

describe('AddWumpusPage', () => {
  it('has the fields of the product rules', async () => {
    await setup()
    expect(field('Animation name*')).toBeInTheDocument()
    expect(field('Animation description*')).toBeInTheDocument()
    expect(field('Lottie link*')).toHaveAttribute('type', 'url')
    expect(fileButton('Upload .png file*')).toBeInTheDocument()
    expect(fileButton('Upload .gif file*')).toBeInTheDocument()
    expect(screen.getByTestId('lottie-file')).toHaveAttribute('accept', '.json,application/json')
    expect(publish()).toBeEnabled()
  })

  it('shows every rule on submit, then updates the messages as the fields change', async () => {
    const { user } = await setup()

    await user.click(publish())

    expect(errorOf(field('Animation name*'))).toBe('Name is required')
    expect(errorOf(field('Animation description*'))).toBe('Description is required')
    expect(errorOf(field('Lottie link*'))).toBe('Enter lottie json link')
    expect(errorOf(fileButton('Upload .png file*'))).toBe('.png file is required')
    expect(errorOf(fileButton('Upload .gif file*'))).toBe('.gif file is required')
    expect(screen.getByText('Pick at least one emoji')).toBeInTheDocument()

    await pickEmoji(user, 'party', 'party popper')
    expect(screen.queryByText('Pick at least one emoji')).not.toBeInTheDocument()
    await user.keyboard('{Escape}')
    await user.click(screen.getByRole('button', { name: 'Remove party popper' }))
    expect(screen.getByText('Pick at least one emoji')).toBeInTheDocument()

    await user.type(field('Animation name*'), 'ab')
    expect(errorOf(field('Animation name*'))).toBe('Name should be at least 3 characters')
    await user.type(field('Animation name*'), '!')
    expect(errorOf(field('Animation name*'))).toBe('Provide a valid name')
    await user.clear(field('Animation name*'))
    await user.type(field('Animation name*'), 'abc')
    expect(errorOf(field('Animation name*'))).toBeNull()

    await user.type(field('Animation description*'), 'Too short')
    expect(errorOf(field('Animation description*'))).toBe('Description should be at least 10 characters')
    await user.type(field('Animation description*'), '!')
    expect(errorOf(field('Animation description*'))).toBeNull()

    await user.type(field('Lottie link*'), 'not a link')
    expect(errorOf(field('Lottie link*'))).toBe('Enter a valid URL')
    // A Lottie is given: the server can render the GIF and APNG, so neither is required (nor marked so) any more.
    expect(errorOf(fileButton('Upload .png file'))).toBeNull()
    expect(errorOf(fileButton('Upload .gif file'))).toBeNull()
  })

  it('marks the fields required only while they are: a Lottie file makes the link and the .png and .gif unneeded', async () => {
    server.use(animationUploadHandler({}).handler)
    const { user } = await setup()
    await user.click(publish())
    expect(errorOf(field('Lottie link*'))).toBe('Enter lottie json link')

    await user.upload(screen.getByTestId('lottie-file'), lottieFile())
    const link = await screen.findByLabelText('Lottie link')
    // No red "Enter lottie json link" beside "this link is not needed".
    expect(errorOf(link)).toBeNull()
    expect(screen.getByText('The uploaded Lottie file is used; this link is not needed.')).toBeInTheDocument()
    expect(fileButton('Upload .png file')).toBeInTheDocument()
    expect(fileButton('Upload .gif file')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /\*$/ })).not.toBeInTheDocument()
    expect(screen.queryByText('.png file is required')).not.toBeInTheDocument()
  })

  it('uploads each file at once and shows its preview with what the server found, then publishes', async () => {
    const gif = makeUploadedFile('gif')
    gif.info = { ...gif.info, width: 300, height: 240, frames: 24, durationMs: 1500, bytes: 2048 }
    const uploads = animationUploadHandler({ gif })
    const create = createWumpusHandler()
    const created = makeWumpus(1, { _id: 'e'.repeat(24), name: 'Happy Wumpus' })
    const stickers = makeStickers(created, { absent: { telegram: 'Telegram does not allow masks' } })
    server.use(uploads.handler, create.handler, stickersHandler({ [created._id]: stickers }))
    const { user, queryClient } = await setup()

    await user.type(field('Animation name*'), 'Happy Wumpus')
    await user.type(field('Animation description*'), 'Waves at everyone who comes by')
    await user.type(tagsInput(), 'Happy,Thumbs Up{Enter}happy,')
    await pickEmoji(user, 'wave', 'waving hand')
    // Pasted, with a skin tone and a repeat: the heart is added once, as its fully qualified character.
    await pickEmoji(user, '❤👋🏽')
    await user.keyboard('{Escape}')
    const chosen = screen.getByRole('group', { name: 'Emoji*' })
    expect(
      within(chosen)
        .getAllByRole('img')
        .map((emoji) => emoji.getAttribute('aria-label')),
    ).toEqual(['waving hand', 'red heart'])
    await user.type(screen.getByRole('combobox', { name: 'Keywords' }), 'Hi, Good  Morning,')
    await user.upload(screen.getByTestId('lottie-file'), lottieFile())
    await user.upload(screen.getByTestId('apng-file'), pngFile())
    await user.upload(screen.getByTestId('gif-file'), gifFile())

    const gifPreview = await screen.findByRole('group', { name: 'GIF preview' })
    expect(within(gifPreview).getByRole('img', { name: 'GIF preview' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^\/api\/files\/.+\.gif$/),
    )
    expect(gifPreview).toHaveTextContent('Size300 × 240 px')
    expect(gifPreview).toHaveTextContent('Frames24')
    expect(gifPreview).toHaveTextContent('Duration1.50 s')
    expect(gifPreview).toHaveTextContent('File2.0 KB')
    expect(await screen.findByRole('group', { name: 'APNG preview' })).toHaveTextContent('Size320 × 320 px')
    const lottiePreview = await screen.findByRole('group', { name: 'Lottie preview' })
    expect(await within(lottiePreview).findByRole('img', { name: 'Lottie preview' })).toBeInTheDocument()
    expect(uploads.formats.sort()).toEqual(['apng', 'gif', 'lottie'])

    await waitFor(() => expect(publish()).toBeEnabled())
    // Marked sensitive: out of the gallery and search for most people.
    await user.click(screen.getByRole('checkbox', { name: /^Sensitive/ }))
    await user.click(publish())

    expect(await screen.findByText('Animation added')).toBeInTheDocument()
    expect(create.bodies).toEqual([
      {
        name: 'Happy Wumpus',
        description: 'Waves at everyone who comes by',
        tags: ['happy', 'thumbs-up'],
        emoji: ['👋', '❤️'],
        keywords: ['hi', 'good morning'],
        sensitive: true,
        files: { gif: expect.any(String), apng: expect.any(String), lottie: expect.any(String) },
      },
    ])
    expect(new Set(Object.values(create.bodies[0]!.files)).size).toBe(3)
    expect(queryClient.getQueryState(wumpusKeys.lists())?.isInvalidated).toBe(true)

    // The page stays, says it is published, and shows which platform exports were made and why one is missing.
    expect(await screen.findByText('Happy Wumpus is published')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'View animation' })).toHaveAttribute('href', `/wumpus/${'e'.repeat(24)}`)
    const exports = screen.getByRole('region', { name: 'Platform exports' })
    expect(await within(exports).findByRole('listitem', { name: 'Discord: Made' })).toHaveTextContent('320x320 APNG, 48.8 KB')
    expect(within(exports).getByRole('listitem', { name: 'Telegram: Missing' })).toHaveTextContent('Telegram does not allow masks')
    expect(within(exports).getByRole('listitem', { name: 'Signal: Made' })).toHaveTextContent('384x384 instead of 512x512 to fit 300 KiB')

    // Add another: a fresh, empty form.
    await user.click(screen.getByRole('button', { name: 'Add another' }))
    expect(field('Animation name*')).toHaveValue('')
  })

  it('suggests the tags in use and refuses a tag that breaks the rules, saying why', async () => {
    server.use(
      tagListHandler([
        { tag: 'happy', count: 4 },
        { tag: 'hello', count: 2 },
      ]).handler,
    )
    const create = createWumpusHandler()
    server.use(create.handler)
    const { user } = await setup()

    await user.type(tagsInput(), 'h')
    expect(await screen.findByRole('option', { name: 'happy' })).toBeInTheDocument()
    expect(screen.getByRole('option', { name: 'hello' })).toBeInTheDocument()
    await user.click(screen.getByRole('option', { name: 'happy' }))
    await user.type(tagsInput(), 'x{Enter}')
    await user.click(publish())

    expect(await screen.findByText('A tag has at least 2 characters')).toBeInTheDocument()
    expect(create.bodies).toEqual([])
  })

  it("shows the server's reason under the input of a refused file, and no preview", async () => {
    const reason = 'Not an animation we can use: The image is not animated: an animated PNG (APNG) is required.'
    server.use(animationUploadHandler({ apng: apiError(415, 'UNSUPPORTED_MEDIA_TYPE', reason, { mediaCode: 'NOT_ANIMATED' }) }).handler)
    const { user } = await setup()

    await user.upload(screen.getByTestId('apng-file'), pngFile())

    await waitFor(() => expect(errorOf(fileButton(/^Upload \.png file/))).toBe(reason))
    expect(screen.queryByRole('group', { name: 'APNG preview' })).not.toBeInTheDocument()
  })

  it('shows upload progress while a file is on its way', async () => {
    const { opened, release } = gate()
    server.use(animationUploadHandler({}, { wait: opened }).handler)
    const { user } = await setup()

    await user.upload(screen.getByTestId('gif-file'), gifFile())

    expect(await screen.findByRole('progressbar', { name: 'Uploading GIF' })).toBeInTheDocument()
    expect(publish()).toBeDisabled()
    release()
    expect(await screen.findByRole('group', { name: 'GIF preview' })).toBeInTheDocument()
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument()
  })

  it('with only a Lottie, enables Publish once the GIF and APNG are generated, and publishes them', async () => {
    const { opened, release } = gate()
    const lottie = makeUploadedFile('lottie')
    const render = renderHandler({ wait: opened })
    const create = createWumpusHandler()
    server.use(animationUploadHandler({ lottie }).handler, render.handler, create.handler)
    const { user } = await setup()

    await user.type(field('Animation name*'), 'Spinner')
    await user.type(field('Animation description*'), 'Spins around and around')
    await pickEmoji(user, 'cyclone', 'cyclone')
    await user.keyboard('{Escape}')
    await user.upload(screen.getByTestId('lottie-file'), lottieFile())
    expect(await screen.findByRole('group', { name: 'Lottie preview' })).toBeInTheDocument()

    expect(publish()).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Generate GIF and APNG' }))
    expect(await screen.findByText('Rendering the GIF and APNG… this takes a few seconds.')).toBeInTheDocument()
    expect(publish()).toBeDisabled()
    release()

    const gifPreview = await screen.findByRole('group', { name: 'GIF preview' })
    expect(gifPreview).toHaveTextContent('Rendered from the Lottie')
    expect(within(gifPreview).getByRole('img', { name: 'GIF preview' })).toHaveAttribute('src', render.result.gif.url)
    expect(screen.getByRole('group', { name: 'APNG preview' })).toHaveTextContent('Rendered from the Lottie')
    expect(render.lotties).toEqual([lottie.id])
    await waitFor(() => expect(publish()).toBeEnabled())

    await user.click(publish())
    await waitFor(() =>
      expect(create.bodies).toEqual([
        {
          name: 'Spinner',
          description: 'Spins around and around',
          tags: [],
          emoji: ['🌀'],
          keywords: [],
          sensitive: false,
          files: { gif: render.result.gif.id, apng: render.result.apng.id, lottie: lottie.id },
        },
      ]),
    )
  })

  it('fetches a Lottie link through the server once it is typed, and renders from it', async () => {
    const fetched = makeUploadedFile('lottie')
    const link = lottieLinkHandler(fetched)
    const render = renderHandler()
    server.use(link.handler, render.handler)
    const { user } = await setup()

    await user.type(field('Lottie link*'), 'https://cdn.example.com/wave.json')
    fireEvent.blur(field('Lottie link*'))

    expect(await screen.findByRole('group', { name: 'Lottie preview' })).toHaveTextContent('Fetched from the link')
    expect(link.links).toEqual(['https://cdn.example.com/wave.json'])
    await user.click(screen.getByRole('button', { name: 'Generate GIF and APNG' }))
    expect(await screen.findByRole('group', { name: 'APNG preview' })).toBeInTheDocument()
    expect(render.lotties).toEqual([fetched.id])
    // Still one fetch: the copy of this link is reused.
    expect(link.links).toHaveLength(1)
  })

  it('shows why a Lottie link was refused under the link', async () => {
    server.use(lottieLinkHandler(apiError(400, 'BAD_REQUEST', 'The JSON is not a Lottie animation.')).handler)
    const { user } = await setup()

    await user.type(field('Lottie link*'), 'https://cdn.example.com/data.json')
    fireEvent.blur(field('Lottie link*'))

    await waitFor(() => expect(errorOf(field('Lottie link*'))).toBe('The JSON is not a Lottie animation.'))
  })
})
