/** The sign-in page, coming back to `from` (a path on this site) once signed in. */
export const signInHref = (from: string) => `/signIn?from=${encodeURIComponent(from)}`
