/**
 * The app's pages, as the router spells them (`$name` is one path segment). The server answers a page
 * navigation to any other path with the app shell and HTTP 404 (the app shows its not-found page).
 * app/app-pages.test.ts keeps this list equal to the router's.
 */
export const APP_PAGES = [
  '/',
  '/about',
  '/emailVerification',
  '/forgetPassword',
  '/saved',
  '/signIn',
  '/signUp',
  '/packs',
  '/packs/$id',
  '/wumpus/$id',
  '/wumpus/$id/remix',
  '/editWumpus/$id',
  '/profile/$email',
  '/dashboard',
  '/dashboard/activity',
  '/dashboard/backups',
  '/dashboard/addNew',
  '/dashboard/favourites',
  '/dashboard/manage',
  '/dashboard/own',
  '/dashboard/profile',
  '/dashboard/users',
  '/dashboard/my-packs',
  '/dashboard/my-packs/new',
  '/dashboard/my-packs/$id',
  '/dashboard/submissions',
  '/dashboard/submissions/new',
  '/dashboard/submissions/$id',
  '/dashboard/notifications',
  '/dashboard/review',
  '/dashboard/reports',
  '/dashboard/packs',
  '/dashboard/packs/new',
  '/dashboard/packs/$id',
] as const

const PATTERNS = APP_PAGES.map((page) => new RegExp(`^${page.replace(/\$[a-z]+/gi, '[^/]+')}$`, 'i'))

/** Whether a URL path (not decoded, a trailing slash allowed, any case like the router) is one of the app's pages. */
export function isAppPage(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname
  return PATTERNS.some((pattern) => pattern.test(path))
}
