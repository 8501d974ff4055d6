// The real server as a child process for the benches that measure it from outside (bench:fair, bench:load),
// and verified accounts signed in through it over the local Auth emulator.
import type { ChildProcess } from 'node:child_process'

/** Resolves once `${base}/ready` answers OK; throws if the server exits first. */
export async function waitForReady(base: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`)
    try {
      if ((await fetch(`${base}/ready`)).ok) return
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

async function emulatorCall(emulatorHost: string, endpoint: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`http://${emulatorHost}/identitytoolkit.googleapis.com/v1/${endpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
  const json = (await res.json()) as Record<string, string>
  if (!res.ok) throw new Error(`${endpoint}: ${JSON.stringify(json)}`)
  return json
}

/** A verified email/password account made on the emulator and signed in through the server's exchange: our session token. */
export async function signedInSession(emulatorHost: string, base: string, email: string, name = 'Bench User'): Promise<string> {
  const password = 'bench-pass-1'
  const call = (endpoint: string, body: unknown, headers?: Record<string, string>) => emulatorCall(emulatorHost, endpoint, body, headers)
  const created = await call('accounts:signUp?key=demo-api-key', { email, password, displayName: name, returnSecureToken: true })
  await call('projects/demo-wumpus/accounts:update', { localId: created.localId, emailVerified: true }, { authorization: 'Bearer owner' })
  const { idToken } = await call('accounts:signInWithPassword?key=demo-api-key', { email, password, returnSecureToken: true })
  const res = await fetch(`${base}/api/user/${email}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
    body: JSON.stringify({ email, user_name: name, photo: '' }),
  })
  if (!res.ok) throw new Error(`sign-in of ${email}: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { token: string }).token
}
