import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderApp } from '../../../test/render-app'

describe('about page', () => {
  it('explains the wumpus, the 1973 game and why the site exists', async () => {
    renderApp('/about')

    expect(await screen.findByRole('heading', { level: 1, name: 'About Wumpus Gallery' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 2, name: 'What is a wumpus?' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 2, name: 'Hunt the Wumpus' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 2, name: 'Why this site exists' })).toBeInTheDocument()
    expect(screen.getByText(/Gregory Yob wrote and published in 1973/)).toBeInTheDocument()
    expect(document.title).toBe('About · Wumpus Gallery')
  })
})
