import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { server } from '../../../test/msw-server'
import { renderWithProviders } from '../../../test/render-with-providers'
import { SignOutEverywhere } from './sign-out-everywhere'

/** DELETE /api/sessions answering `status`, with the requests it got. */
function endAllHandler(status = 204) {
  const requests: Request[] = []
  server.use(
    http.delete('/api/sessions', ({ request }) => {
      requests.push(request)
      return status === 204
        ? new HttpResponse(null, { status })
        : HttpResponse.json({ error: { code: 'FORBIDDEN', message: 'Verify your email address first' } }, { status })
    }),
  )
  return requests
}

describe('SignOutEverywhere', () => {
  it('asks first; Cancel sends nothing', async () => {
    const requests = endAllHandler()
    const onSignedOut = vi.fn(async () => {})
    const { user } = renderWithProviders(<SignOutEverywhere emailVerified onSignedOut={onSignedOut} />)
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere' }))
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere?' })
    expect(dialog).toHaveTextContent('this one included')
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(requests).toHaveLength(0)
    expect(onSignedOut).not.toHaveBeenCalled()
  })

  it('ends every session on the server, then signs out here and says so', async () => {
    const requests = endAllHandler()
    const onSignedOut = vi.fn(async () => {})
    const { user } = renderWithProviders(<SignOutEverywhere emailVerified onSignedOut={onSignedOut} />)
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign out everywhere' }))
    expect(await screen.findByText('Signed out everywhere')).toBeInTheDocument()
    expect(requests.map((request) => request.method)).toEqual(['DELETE'])
    expect(onSignedOut).toHaveBeenCalledOnce()
  })

  it("shows the server's refusal and stays signed in", async () => {
    endAllHandler(403)
    const onSignedOut = vi.fn(async () => {})
    const { user } = renderWithProviders(<SignOutEverywhere emailVerified onSignedOut={onSignedOut} />)
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign out everywhere' }))
    expect(await screen.findByText('Could not sign out everywhere')).toBeInTheDocument()
    expect(screen.getByText('Verify your email address first')).toBeInTheDocument()
    expect(onSignedOut).not.toHaveBeenCalled()
  })

  it('signs out here when the sessions ended but Firebase could not revoke the sign-ins, and says so', async () => {
    server.use(
      http.delete('/api/sessions', () =>
        HttpResponse.json(
          {
            error: {
              code: 'STORE_UNAVAILABLE',
              message: '2 sessions ended, but sign-ins cannot be revoked right now, try again shortly',
              details: { reason: 'revocation-failed', endedCount: 2 },
            },
          },
          { status: 503 },
        ),
      ),
    )
    const onSignedOut = vi.fn(async () => {})
    const { user } = renderWithProviders(<SignOutEverywhere emailVerified onSignedOut={onSignedOut} />)
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign out everywhere' }))
    expect(await screen.findByText('Signed out everywhere, but sign-ins were not revoked')).toBeInTheDocument()
    expect(screen.getByText('2 sessions ended, but sign-ins cannot be revoked right now, try again shortly')).toBeInTheDocument()
    expect(onSignedOut).toHaveBeenCalledOnce()
  })

  it('waits for a verified email', async () => {
    renderWithProviders(<SignOutEverywhere emailVerified={false} onSignedOut={vi.fn()} />)
    expect(await screen.findByRole('button', { name: 'Sign out everywhere' })).toBeDisabled()
    expect(screen.getByText('Verify your email address first.')).toBeInTheDocument()
  })
})
