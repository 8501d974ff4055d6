import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../test/render-with-providers'
import { ShareButton } from './share-button'

const DATA = { title: 'Waving Wumpus', text: 'Says hello to everyone', url: 'https://stickers.example.com/wumpus/65a0000000000000000000aa' }

/** Gives jsdom's navigator a property for one test (the fake device); removed after each test. */
const added: string[] = []
function fakeNavigator(key: 'share' | 'canShare' | 'clipboard', value: unknown) {
  Object.defineProperty(navigator, key, { value, configurable: true, writable: true })
  added.push(key)
}
afterEach(() => {
  for (const key of added.splice(0)) Reflect.deleteProperty(navigator, key)
})

function renderButton() {
  const view = renderWithProviders(<ShareButton {...DATA} />)
  // After userEvent.setup(), which puts its own clipboard on navigator.
  const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined)
  fakeNavigator('clipboard', { writeText })
  return { ...view, writeText }
}

describe('ShareButton', () => {
  it('opens the share sheet with title, text and link where the device has one', async () => {
    const share = vi.fn<(data: unknown) => Promise<void>>().mockResolvedValue(undefined)
    fakeNavigator('share', share)
    fakeNavigator('canShare', () => true)
    const { user, writeText } = renderButton()
    await user.click(await screen.findByRole('button', { name: 'Share' }))
    expect(share).toHaveBeenCalledWith(DATA)
    expect(writeText).not.toHaveBeenCalled()
    expect(screen.queryByText('Link copied')).not.toBeInTheDocument()
  })

  it('says nothing when the share sheet is closed', async () => {
    fakeNavigator('share', () => Promise.reject(new DOMException('Share canceled', 'AbortError')))
    const { user, writeText } = renderButton()
    await user.click(await screen.findByRole('button', { name: 'Share' }))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Share' })).toBeEnabled())
    expect(writeText).not.toHaveBeenCalled()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('copies the link with a toast where there is no share sheet', async () => {
    const { user, writeText } = renderButton()
    await user.click(await screen.findByRole('button', { name: 'Copy link' }))
    expect(writeText).toHaveBeenCalledWith(DATA.url)
    expect(await screen.findByText('Link copied')).toBeInTheDocument()
  })

  it('copies the link when the device cannot share these, or its share sheet fails', async () => {
    fakeNavigator('share', vi.fn())
    fakeNavigator('canShare', () => false)
    const first = renderButton()
    await first.user.click(await screen.findByRole('button', { name: 'Copy link' }))
    expect(first.writeText).toHaveBeenCalledWith(DATA.url)
    first.unmount()

    fakeNavigator('canShare', () => true)
    fakeNavigator('share', () => Promise.reject(new DOMException('No activation', 'NotAllowedError')))
    const second = renderButton()
    await second.user.click(await screen.findByRole('button', { name: 'Share' }))
    await waitFor(() => expect(second.writeText).toHaveBeenCalledWith(DATA.url))
    expect(await screen.findAllByText('Link copied')).toHaveLength(2)
  })

  it('shows the link to copy by hand when the clipboard refuses it', async () => {
    const { user, writeText } = renderButton()
    writeText.mockRejectedValue(new DOMException('Denied', 'NotAllowedError'))
    await user.click(await screen.findByRole('button', { name: 'Copy link' }))
    expect(await screen.findByText('Could not copy the link')).toBeInTheDocument()
    expect(screen.getByText(`Copy it from here: ${DATA.url}`)).toBeInTheDocument()
  })
})
