import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { server } from '../test/msw-server'

// A stand-in for the Firebase SDK (it cannot run in jsdom): records how lib/firebase drives it.
// Registered afresh before each test (vi.doMock after vi.resetModules), so loads are counted per test.
const sdk = (() => {
  const state = { appLoads: 0, authLoads: 0, currentUser: null as unknown, calls: [] as unknown[][], refuseContinueUrl: false }
  const record =
    (name: string, result?: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      state.calls.push([name, ...args])
      return result?.(...args)
    }
  const auth = {
    get currentUser() {
      return state.currentUser
    },
    authStateReady: async () => {},
  }
  return { state, record, auth }
})()

const fakeApp = () => {
  sdk.state.appLoads++
  return { initializeApp: sdk.record('initializeApp', () => ({ name: 'app' })) }
}
const fakeAuth = () => {
  sdk.state.authLoads++
  class GoogleAuthProvider {
    readonly providerId = 'google.com'
  }
  return {
    initializeAuth: sdk.record('initializeAuth', () => sdk.auth),
    connectAuthEmulator: sdk.record('connectAuthEmulator'),
    indexedDBLocalPersistence: 'indexedDB',
    browserLocalPersistence: 'local',
    browserPopupRedirectResolver: 'popup-resolver',
    GoogleAuthProvider,
    signInWithPopup: sdk.record('signInWithPopup', async () => ({ user: { email: 'g@example.com' } })),
    signInWithEmailAndPassword: sdk.record('signInWithEmailAndPassword', async () => ({ user: { email: 'e@example.com' } })),
    createUserWithEmailAndPassword: sdk.record('createUserWithEmailAndPassword', async () => ({ user: { email: 'n@example.com' } })),
    sendPasswordResetEmail: sdk.record('sendPasswordResetEmail', async () => {}),
    sendEmailVerification: sdk.record('sendEmailVerification', async (_user, settings) => {
      if (settings && sdk.state.refuseContinueUrl) throw Object.assign(new Error('refused'), { code: 'auth/unauthorized-continue-uri' })
    }),
    updateProfile: sdk.record('updateProfile', async () => {}),
    reload: sdk.record('reload', async () => {}),
    signOut: sdk.record('signOut', async () => {}),
  }
}

const config = (authEmulatorUrl?: string) =>
  http.get('/api/config', () =>
    HttpResponse.json({
      firebase: { apiKey: 'key', authDomain: 'demo-wumpus.firebaseapp.com', projectId: 'demo-wumpus', authEmulatorUrl },
    }),
  )

beforeEach(() => {
  vi.resetModules()
  vi.doMock('firebase/app', fakeApp)
  vi.doMock('firebase/auth', fakeAuth)
  sdk.state.appLoads = 0
  sdk.state.authLoads = 0
  sdk.state.calls.length = 0
  sdk.state.currentUser = null
  sdk.state.refuseContinueUrl = false
})

const callsOf = (name: string) => sdk.state.calls.filter((call) => call[0] === name)

describe('lib/firebase', () => {
  it('does not load the SDK until a function needs it, then initialises once from /api/config', async () => {
    let configRequests = 0
    server.use(
      http.get('/api/config', () => {
        configRequests++
        return HttpResponse.json({ firebase: { apiKey: 'key', authDomain: 'demo-wumpus.firebaseapp.com', projectId: 'demo-wumpus' } })
      }),
    )
    const firebase = await import('./firebase')
    expect([sdk.state.appLoads, sdk.state.authLoads]).toEqual([0, 0])
    expect(sdk.state.calls).toEqual([])
    expect(configRequests).toBe(0)

    await Promise.all([firebase.currentAccount(), firebase.sendPasswordReset('ada@example.com')])
    await firebase.signOutOfFirebase()

    expect([sdk.state.appLoads, sdk.state.authLoads]).toEqual([1, 1])
    expect(configRequests).toBe(1)
    expect(callsOf('initializeApp')).toEqual([
      ['initializeApp', { apiKey: 'key', authDomain: 'demo-wumpus.firebaseapp.com', projectId: 'demo-wumpus' }],
    ])
    expect(callsOf('initializeAuth')).toEqual([
      ['initializeAuth', { name: 'app' }, { persistence: ['indexedDB', 'local'], popupRedirectResolver: 'popup-resolver' }],
    ])
    expect(callsOf('connectAuthEmulator')).toEqual([])
    expect(callsOf('sendPasswordResetEmail')).toEqual([['sendPasswordResetEmail', sdk.auth, 'ada@example.com']])
    expect(callsOf('signOut')).toEqual([['signOut', sdk.auth]])
  })

  it('connects to the Auth emulator when the config names one', async () => {
    server.use(config('http://127.0.0.1:9099'))
    const firebase = await import('./firebase')
    await firebase.currentAccount()
    expect(callsOf('connectAuthEmulator')).toEqual([['connectAuthEmulator', sdk.auth, 'http://127.0.0.1:9099', { disableWarnings: true }]])
  })

  it('signs in with a Google popup and with email and password', async () => {
    server.use(config())
    const firebase = await import('./firebase')

    await expect(firebase.signInWithGoogle()).resolves.toEqual({ email: 'g@example.com' })
    const [popup] = callsOf('signInWithPopup')
    expect(popup?.[1]).toBe(sdk.auth)
    expect(popup?.[2]).toMatchObject({ providerId: 'google.com' })

    await expect(firebase.signInWithEmail('e@example.com', 'secret1')).resolves.toEqual({ email: 'e@example.com' })
    expect(callsOf('signInWithEmailAndPassword')).toEqual([['signInWithEmailAndPassword', sdk.auth, 'e@example.com', 'secret1']])
  })

  it('updates, verifies and reloads the signed-in account, and refuses when nobody is signed in', async () => {
    server.use(config())
    const firebase = await import('./firebase')
    await expect(firebase.sendVerificationEmail()).rejects.toThrow(/not signed in/)
    await expect(firebase.reloadAccount()).resolves.toBeNull()

    const user = { email: 'ada@example.com', emailVerified: true }
    sdk.state.currentUser = user
    await firebase.updateAccountProfile({ displayName: 'Ada Lovelace' })
    await firebase.sendVerificationEmail()
    await expect(firebase.reloadAccount()).resolves.toBe(user)
    expect(callsOf('updateProfile')).toEqual([['updateProfile', user, { displayName: 'Ada Lovelace' }]])
    // The link's page leads back to the app's waiting page.
    expect(callsOf('sendEmailVerification')).toEqual([
      ['sendEmailVerification', user, { url: `${window.location.origin}/emailVerification`, handleCodeInApp: false }],
    ])
    expect(callsOf('reload')).toEqual([['reload', user]])
  })

  it('sends the verification link back to a given page, and without the way back where Firebase refuses this origin', async () => {
    server.use(config())
    const firebase = await import('./firebase')
    const user = { email: 'ada@example.com', emailVerified: false }
    sdk.state.currentUser = user
    await firebase.sendVerificationEmail('/emailVerification?from=%2Fdashboard')
    expect(callsOf('sendEmailVerification')).toEqual([
      ['sendEmailVerification', user, { url: `${window.location.origin}/emailVerification?from=%2Fdashboard`, handleCodeInApp: false }],
    ])

    sdk.state.calls.length = 0
    sdk.state.refuseContinueUrl = true
    await firebase.sendVerificationEmail()
    expect(callsOf('sendEmailVerification').map((call) => call.length)).toEqual([3, 2])
  })

  it('tries again after a failed start (e.g. offline)', async () => {
    server.use(http.get('/api/config', () => HttpResponse.error()))
    const firebase = await import('./firebase')
    await expect(firebase.currentAccount()).rejects.toMatchObject({ code: 'NETWORK_ERROR' })

    server.use(config())
    await expect(firebase.currentAccount()).resolves.toBeNull()
    expect(callsOf('initializeAuth')).toHaveLength(1)
  })
})
