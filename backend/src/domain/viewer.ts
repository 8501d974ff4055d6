import type { Role } from '../store/port'

/**
 * Who asks: a signed-in user, `admin` only with admin power (an admin whose email is verified), or
 * undefined for nobody signed in.
 */
export type Viewer = { email: string; role: Role } | undefined

/** Who writes: always signed in. */
export type Actor = NonNullable<Viewer>

/** Whether the viewer holds admin power. */
export const isAdminViewer = (viewer: Viewer): boolean => viewer?.role === 'admin'
