// Paths of screens that later slices add as routes; plain hrefs until then.
export const SIGN_IN_PATH = '/signIn'
export const SIGN_UP_PATH = '/signUp'

/** /profile/{email}, keeping the @ readable. */
export function profilePath(email: string): string {
  return `/profile/${encodeURIComponent(email).replace(/%40/g, '@')}`
}
