import { describe, expect, it } from 'vitest'
import { isAppPage } from './app-pages'

describe('the app pages', () => {
  it('match the router paths, with a segment for each $name, an optional trailing slash, in any case', () => {
    for (const page of [
      '/',
      '/about',
      '/packs',
      '/packs/',
      '/wumpus/0123456789abcdef01234567',
      '/wumpus/x/remix',
      '/profile/ana%40studio.gallery',
      '/dashboard/my-packs/new',
      '/signin',
    ]) {
      expect(isAppPage(page), page).toBe(true)
    }
  })

  it('leave out every other path', () => {
    for (const other of ['/no/such/page', '/wumpus', '/wumpus/a/b', '/packs/a/b', '/dashboard/nope', '/about/more', '/signIn/x']) {
      expect(isAppPage(other), other).toBe(false)
    }
  })
})
