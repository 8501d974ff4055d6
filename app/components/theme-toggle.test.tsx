import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderApp } from '../test/render-app'

describe('theme toggle', () => {
  it('switches between light and dark and stores the choice under "theme"', async () => {
    const { user } = renderApp('/about')

    await user.click(await screen.findByRole('button', { name: 'Switch to dark theme' }))
    expect(window.localStorage.getItem('theme')).toBe('dark')
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark')

    await user.click(screen.getByRole('button', { name: 'Switch to light theme' }))
    expect(window.localStorage.getItem('theme')).toBe('light')
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'light')
  })

  it('starts from the stored choice', async () => {
    window.localStorage.setItem('theme', 'dark')
    renderApp('/about')
    expect(await screen.findByRole('button', { name: 'Switch to light theme' })).toBeInTheDocument()
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark')
  })
})
