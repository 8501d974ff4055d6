import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { makeWumpus } from '../../../test/fixtures'
import { IntersectionObserverStub } from '../../../test/intersection-observer-stub'
import { server } from '../../../test/msw-server'
import { userAnimationsHandler } from '../../../test/profile-handlers'
import { renderWithProviders } from '../../../test/render-with-providers'
import { MyAnimations } from './my-animations'

const EMAIL = 'ana.smith@example.com'
const mine = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => makeWumpus(from + i, { u_email: EMAIL, u_name: 'Ana Smith' }))

async function cards() {
  const list = await screen.findByRole('list', { name: 'My animations' })
  return within(list).getAllByRole('listitem')
}

describe('MyAnimations', () => {
  it("lists the user's own animations with preview, name, description, author and Download links", async () => {
    const items = mine(1, 3)
    const { handler, requests } = userAnimationsHandler([...items, makeWumpus(50)])
    server.use(handler)
    renderWithProviders(<MyAnimations email={EMAIL} />)

    expect(await screen.findByRole('heading', { level: 1, name: 'My animation' })).toBeInTheDocument()
    const rendered = await cards()
    expect(rendered).toHaveLength(3)
    const first = within(rendered[0]!)
    expect(first.getByRole('img', { name: 'Wumpus 1: Animation number 1' })).toHaveAttribute('src', items[0]!.gif)
    expect(first.getByRole('heading', { name: 'Wumpus 1' })).toBeInTheDocument()
    expect(first.getByText('Animation number 1')).toBeInTheDocument()
    expect(first.getByRole('link', { name: 'by Ana Smith' })).toHaveAttribute('href', `/profile/${EMAIL}`)
    expect(first.getByRole('link', { name: 'Download Wumpus 1' })).toHaveAttribute('href', `/wumpus/${items[0]!._id}`)
    expect(requests[0]!.searchParams.get('u_email')).toBe(EMAIL)
    expect(document.title).toBe('My animation · Wumpus Gallery')
  })

  it('says so when the user has no animation', async () => {
    server.use(userAnimationsHandler([makeWumpus(50)]).handler)
    renderWithProviders(<MyAnimations email={EMAIL} />)

    expect(await screen.findByText("Looks like you don't have any animation")).toBeInTheDocument()
    expect(screen.queryByRole('list')).not.toBeInTheDocument()
  })

  it('loads the next page when the end of the list comes into view', async () => {
    const { handler, requests } = userAnimationsHandler(mine(1, 30))
    server.use(handler)
    renderWithProviders(<MyAnimations email={EMAIL} />)

    expect(await cards()).toHaveLength(24)
    expect(screen.getByRole('status')).toHaveTextContent('Showing 24 of 30')
    await waitFor(() => expect(IntersectionObserverStub.instances.size).toBeGreaterThan(0))
    IntersectionObserverStub.intersectAll()

    await waitFor(async () => expect(await cards()).toHaveLength(30))
    expect(requests.map((url) => url.searchParams.get('cursor'))).toEqual([null, '24'])
    expect(requests[1]!.searchParams.get('u_email')).toBe(EMAIL)
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
  })
})
