/** /profile/{email}, keeping the @ readable. */
export function profilePath(email: string): string {
  return `/profile/${encodeURIComponent(email).replace(/%40/g, '@')}`
}

/**
 * Where to go after signing in: the remembered location when it is a path on this site, else home.
 * Anything else (another origin, `//host`, `javascript:`) could send users off-site.
 */
export function returnPath(from: unknown): string {
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return '/'
  return from
}
