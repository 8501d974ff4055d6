import { act, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../test/render-with-providers'
import { resetUpdatesForTest, watchForUpdates, type UpdatableWorker } from '../lib/pwa/sw-updates'
import { UpdatePrompt } from './update-prompt'

/** Stands in for workbox-window's Workbox: fires its events on demand, records what the page posts. */
function fakeWorkbox() {
  const listeners = new Map<string, Array<() => void>>()
  const posted: unknown[] = []
  const worker: UpdatableWorker = {
    addEventListener(type, listener) {
      listeners.set(type, [...(listeners.get(type) ?? []), listener])
    },
    // Workbox posts this to the waiting worker; sw.ts answers it with skipWaiting().
    messageSkipWaiting: () => posted.push({ type: 'SKIP_WAITING' }),
  }
  const fire = (type: 'waiting' | 'controlling') => act(() => listeners.get(type)?.forEach((listener) => listener()))
  return { worker, posted, fire }
}

afterEach(() => act(() => resetUpdatesForTest()))

describe('update prompt', () => {
  it('stays away until a new service worker waits', () => {
    const { worker } = fakeWorkbox()
    watchForUpdates(worker, { reload: vi.fn() })
    renderWithProviders(<UpdatePrompt />)
    expect(screen.queryByRole('button', { name: 'Reload' })).not.toBeInTheDocument()
  })

  it('offers Reload, which posts SKIP_WAITING and reloads once the new worker controls the page', async () => {
    const { worker, posted, fire } = fakeWorkbox()
    const reload = vi.fn()
    watchForUpdates(worker, { reload })
    const { user } = renderWithProviders(<UpdatePrompt />)
    fire('waiting')

    expect(await screen.findByText('Update available')).toBeInTheDocument()
    expect(screen.getByText('A new version of Wumpus Gallery is ready.')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Reload' }))
    expect(posted).toEqual([{ type: 'SKIP_WAITING' }])
    expect(reload).not.toHaveBeenCalled()

    fire('controlling')
    expect(reload).toHaveBeenCalledTimes(1)
  })

  it('does not reload when a first worker takes control (the page reads its data again), nor before Reload is chosen', () => {
    const { worker, posted, fire } = fakeWorkbox()
    const reload = vi.fn()
    const onFirstControl = vi.fn()
    watchForUpdates(worker, { reload, onFirstControl })
    renderWithProviders(<UpdatePrompt />)
    fire('controlling')
    expect(onFirstControl).toHaveBeenCalledTimes(1)
    fire('waiting')
    fire('controlling')
    expect(reload).not.toHaveBeenCalled()
    expect(posted).toEqual([])
  })

  it('just reloads when another tab already activated the update', async () => {
    const { worker, posted, fire } = fakeWorkbox()
    const reload = vi.fn()
    watchForUpdates(worker, { reload })
    const { user } = renderWithProviders(<UpdatePrompt />)
    fire('waiting')
    fire('controlling')
    expect(reload).not.toHaveBeenCalled()
    await user.click(await screen.findByRole('button', { name: 'Reload' }))
    expect(reload).toHaveBeenCalledTimes(1)
    expect(posted).toEqual([])
  })

  it('can be put off with Later', async () => {
    const { worker, posted, fire } = fakeWorkbox()
    watchForUpdates(worker, { reload: vi.fn() })
    const { user } = renderWithProviders(<UpdatePrompt />)
    fire('waiting')
    await user.click(await screen.findByRole('button', { name: 'Later' }))
    expect(screen.queryByRole('button', { name: 'Reload' })).not.toBeInTheDocument()
    expect(posted).toEqual([])
  })
})
