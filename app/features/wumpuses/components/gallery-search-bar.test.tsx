import { readFileSync } from 'node:fs'
import path from 'node:path'
import { runInThisContext } from 'node:vm'
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router'
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import type { GallerySearch } from '../gallery-search'
import { FitsSelect } from './fits-select'
import { GALLERY_SEARCH_FORM_ID, GallerySearchBar } from './gallery-search-bar'

type Change = [GallerySearch, boolean]

/** The search bar and the fits select as the gallery lays them out, keeping the search they ask for. */
function SearchForm({ initial, changes }: { initial: GallerySearch; changes: Change[] }) {
  const [search, setSearch] = useState(initial)
  const onChange = (next: GallerySearch, typing: boolean) => {
    changes.push([next, typing])
    setSearch(next)
  }
  return (
    <>
      <GallerySearchBar search={search} onChange={onChange} searching={false} />
      <FitsSelect search={search} onChange={(next) => onChange(next, false)} form={GALLERY_SEARCH_FORM_ID} />
    </>
  )
}

/** index.html's inline script that records what is done before the app runs. */
const earlyActionsScript = [
  ...readFileSync(path.resolve(__dirname, '../../../index.html'), 'utf8').matchAll(/<script>([\s\S]*?)<\/script>/g),
]
  .map((match) => match[1]!)
  .find((script) => script.includes('earlyActions'))!

/**
 * Renders the form to HTML as the server does, runs index.html's early script, lets `beforeHydration` act on
 * that markup as a person does before the app's scripts run, then hydrates it (main.tsx stops the script first).
 */
async function hydrateAfter(initial: GallerySearch, beforeHydration: () => void) {
  const changes: Change[] = []
  const routerFor = () =>
    createRouter({
      routeTree: createRootRoute({ component: () => <SearchForm initial={initial} changes={changes} /> }),
      history: createMemoryHistory({ initialEntries: ['/'] }),
    })
  const serverRouter = routerFor()
  await serverRouter.load()
  const container = document.body.appendChild(document.createElement('div'))
  container.innerHTML = renderToString(<RouterProvider router={serverRouter} />)
  runInThisContext(earlyActionsScript)
  beforeHydration()
  window.earlyActions!.stop()
  const errors = vi.spyOn(console, 'error')
  const router = routerFor()
  await router.load()
  render(<RouterProvider router={router} />, { container, hydrate: true })
  return { changes, errors }
}

const searchBox = () => screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search animations' })
const order = () => screen.getByRole<HTMLSelectElement>('combobox', { name: 'Order' })
const fits = () => screen.getByRole<HTMLSelectElement>('combobox', { name: 'Fits a platform' })

describe('the gallery search form before the app runs', () => {
  it('is a GET form to / whose fields are named as the URL names them', async () => {
    await hydrateAfter({}, () => {})
    const form = screen.getByRole('search')
    expect(form).toHaveAttribute('method', 'get')
    expect(form).toHaveAttribute('action', '/')
    expect(searchBox()).toHaveAttribute('name', 'q')
    expect(order()).toHaveAttribute('name', 'sort')
    // The default order sends nothing: the words decide it.
    expect(order()).toHaveValue('')
    expect(fits()).toHaveAttribute('name', 'fits')
    expect(fits()).toHaveAttribute('form', form.id)
  })

  it('searches for what was typed before hydration and keeps it in the box', async () => {
    const { changes, errors } = await hydrateAfter({}, () => {
      fireEvent.input(searchBox(), { target: { value: 'wav' } })
    })
    await waitFor(() => expect(changes).toEqual([[{ q: 'wav' }, true]]))
    expect(searchBox()).toHaveValue('wav')
    expect(screen.getByRole('link', { name: 'Clear the search box' })).toHaveAttribute('href', '/')
    expect(order()).toHaveDisplayValue('Best match')
    expect(errors).not.toHaveBeenCalled()
  })

  it('takes the order and platform chosen before hydration along with the words, in one change', async () => {
    const { changes, errors } = await hydrateAfter({ q: 'moon', tag: 'night' }, () => {
      fireEvent.input(searchBox(), { target: { value: 'moon cake ' } })
      fireEvent.change(order(), { target: { value: 'popular' } })
      fireEvent.change(fits(), { target: { value: 'slack' } })
    })
    await waitFor(() => expect(changes).toEqual([[{ q: 'moon cake', tag: 'night', sort: 'popular', fits: 'slack' }, true]]))
    expect(searchBox()).toHaveValue('moon cake ')
    expect(order()).toHaveValue('popular')
    expect(fits()).toHaveValue('slack')
    expect(errors).not.toHaveBeenCalled()
  })

  it('changes nothing when nothing was entered before hydration', async () => {
    const { changes, errors } = await hydrateAfter({ q: 'moon', sort: 'popular' }, () => {
      fireEvent.click(searchBox())
    })
    expect(searchBox()).toHaveValue('moon')
    expect(order()).toHaveValue('popular')
    expect(changes).toEqual([])
    expect(errors).not.toHaveBeenCalled()
  })
})
