import { fileIdOfPath } from '../../../contract/api-paths'
import { CONFIG_ACTOR } from '../../../contract/audit'
import { isReservedEmail, nameWithinRules, type ProfileUpdate, type SessionClaims, type SignInPayload } from '../../../contract/user'
import type { FirebaseIdentity } from '../auth/firebase-id-token'
import type { Viewer } from '../domain/viewer'
import { isAdmin, isVerifiedAdmin, viewerOfSession } from './roles'
import type { Store, UserPatch, UserRecord } from '../store/port'
import type { AuditLog } from './audit'
import type { SessionService } from './sessions'
import { DomainError, forbidden, invalid, notFound, unavailable } from '../domain/errors'
import { isContributor } from './makers'

/**
 * The account rules: power follows proof. An account (keyed by email) is bound to the Firebase
 * account of its first sign-in with a verified email, and only that Firebase account may sign in to
 * it afterwards. Sign-ins without a verified email may create a bare record for a new email and get a
 * session, but change nothing; profile changes and admin roles need a verified email.
 */
export interface AccountsDeps {
  store: Store
  sessions: SessionService
  audit: AuditLog
  /** Emails that become admins on any sign-in with the email verified (ADMIN_EMAILS). */
  adminEmails: readonly string[]
  /** Revokes a Firebase account's sign-ins, so a device's Firebase login cannot start a new session. */
  revokeSignIns: (uid: string) => Promise<void>
}

export interface AccountService {
  /** The sign-in exchange (and its renewal, with `payload.session`): the account rules, then a session. */
  signIn(identity: FirebaseIdentity, payload: SignInPayload): Promise<SignedIn>
  /** A user changes their own profile, with a verified email; the answer's token keeps the session's expiry. */
  updateProfile(session: SessionClaims, email: string, patch: ProfileUpdate): Promise<ProfileUpdated>
  /** An admin (checked by the route) makes another user an admin; answers how many changed (0 or 1). */
  makeAdmin(actor: string, email: string): Promise<number>
  /**
   * Signs an account out everywhere: its sessions end, then its Firebase sign-ins are revoked; answers how
   * many sessions ended. A revocation that failed throws UNAVAILABLE (reason `revocation-failed`) after.
   */
  signOutEverywhere(email: string): Promise<number>
  /** An admin (checked by the route) signs a user out everywhere, audited, as signOutEverywhere; answers how many sessions ended. */
  endSessionsOf(actor: string, email: string): Promise<number>
  /** A profile as the caller may see it (profileFor). */
  profileFor(session: SessionClaims, email: string): Promise<ProfileView>
  /** Whether `email` is an admin: anyone may ask about themselves, only verified admins about someone else. */
  adminStatus(session: SessionClaims, email: string): Promise<boolean>
  /** Every user, for the admins' user list (the route checks the role). */
  list(): Promise<UserRecord[]>
  /** Whether the user is an admin now: read from the store, so a promotion counts at once. */
  isAdmin(email: string): Promise<boolean>
  /** The caller of a session as a Viewer: `admin` only with admin power (a verified email). */
  viewerOf(session: SessionClaims | undefined): Promise<Viewer>
  /** Whether lists and searches show this caller the sensitive animations: their own choice, never for visitors. */
  showsSensitive(session: SessionClaims | undefined): Promise<boolean>
}

export function createAccountService(deps: AccountsDeps): AccountService {
  const { store } = deps
  return {
    signIn: (identity, payload) => signIn(deps, identity, payload),
    updateProfile: (session, email, patch) => updateProfile(deps, session, email, patch),
    makeAdmin: (actor, email) => makeAdmin(deps, actor, email),
    signOutEverywhere: (email) => signOutEverywhere(deps, email),
    endSessionsOf: (actor, email) => endSessionsOf(deps, actor, email),
    profileFor: (session, email) => profileFor(store, session, email),
    adminStatus: (session, email) => adminStatus(store, session, email),
    list: () => store.users.list(),
    isAdmin: (email) => isAdmin(store, email),
    viewerOf: (session) => viewerOfSession(store, session),
    showsSensitive: async (session) => (session ? (await store.users.get(session.email))?.showSensitive === true : false),
  }
}

export interface SignedIn {
  token: string
  user: UserRecord
}

const noSuchUser = () => notFound('No such user')

const boundElsewhere = () => forbidden('This email address is linked to another sign-in account', { reason: 'account-bound' })

/** The sign-in exchange (and its renewal, with `payload.session`): the account rules, then a session. */
async function signIn(deps: AccountsDeps, identity: FirebaseIdentity, payload: SignInPayload): Promise<SignedIn> {
  const { store } = deps
  const email = identity.email
  if (isReservedEmail(email)) throw forbidden('Addresses on reserved domains cannot sign in', { reason: 'reserved-email' })

  let user = await store.users.get(email)
  if (user?.firebaseUid !== undefined && user.firebaseUid !== identity.uid) throw boundElsewhere()

  // A new email gets a bare record; without a verified email that is all.
  user ??= await store.users.upsert(email, {})
  if (identity.emailVerified) {
    const wasBound = user.firebaseUid !== undefined
    const bound = await store.users.bind(email, identity.uid)
    if (!bound) throw boundElsewhere()
    // Sessions that unverified sign-ins got for this email end now (but the one being renewed).
    if (!wasBound) await deps.sessions.endOthers(email, identity.uid, payload.session)
    const blanks = await blanksFilled(store, email, bound, payload, identity)
    user = Object.keys(blanks).length > 0 ? await store.users.upsert(email, blanks) : bound
    if (deps.adminEmails.includes(email) && (await store.users.setRole(email, 'admin')) > 0) {
      user = { ...user, role: 'admin' }
      await deps.audit.record({
        actor: CONFIG_ACTOR,
        action: 'user.make-admin',
        target: { type: 'user', id: email, name: user.user_name },
        changes: [{ field: 'role', from: 'user', to: 'admin' }],
      })
    }
  }

  const name = user.user_name || signInName(email, payload, identity)
  const token = await deps.sessions.signIn(
    { email, uid: identity.uid, name, emailVerified: identity.emailVerified, authTime: identity.authTime },
    payload.session,
  )
  return { token, user }
}

/** The name a sign-in brings (the form's, the account's, the email's), within the profile form's rules. */
function signInName(email: string, payload: SignInPayload, identity: FirebaseIdentity): string {
  return [payload.user_name, identity.name, email.split('@')[0]].map((name) => nameWithinRules(name ?? '')).find(Boolean) ?? 'Wumpus fan'
}

/** A returning user keeps the name and photo they chose here; only blanks are filled in from the sign-in. */
async function blanksFilled(
  store: Store,
  email: string,
  user: UserRecord,
  payload: SignInPayload,
  identity: FirebaseIdentity,
): Promise<UserPatch> {
  const patch: UserPatch = {}
  if (!user.user_name) patch.user_name = signInName(email, payload, identity)
  const photo = payload.photo ?? ''
  if (!user.photo && photo && (await imageProblem(store, email, photo)) === undefined) patch.photo = photo
  return patch
}

/**
 * Why a photo or cover URL cannot be used, or undefined: one of our own files must be an image its
 * user uploaded (not someone else's, not an animation file); https links elsewhere are theirs to give.
 */
async function imageProblem(store: Store, email: string, url: string): Promise<string | undefined> {
  const id = fileIdOfPath(url)
  if (!id) return undefined
  const file = await store.files.info(id)
  if (!file || file.purpose !== 'image') return 'No uploaded image at this address'
  if (file.owner !== email) return 'Use an image you uploaded'
  return undefined
}

export interface ProfileUpdated {
  modifiedCount: number
  user: UserRecord
  token: string
}

/** A user changes their own profile, with a verified email; the answer's token keeps the session's expiry. */
async function updateProfile(
  deps: Pick<AccountsDeps, 'store' | 'sessions'>,
  session: SessionClaims,
  email: string,
  patch: ProfileUpdate,
): Promise<ProfileUpdated> {
  const { store } = deps
  if (session.email !== email) throw forbidden('You can only change your own profile')
  if (!session.email_verified) throw forbidden('Verify your email address before changing your profile', { reason: 'email-not-verified' })
  const problems = []
  for (const field of ['photo', 'cover'] as const) {
    const problem = patch[field] ? await imageProblem(store, email, patch[field]) : undefined
    if (problem) problems.push({ path: field, message: problem })
  }
  if (problems.length > 0) throw invalid('The request is not valid', problems)
  const before = await store.users.get(email)
  if (!before) throw noSuchUser()
  const after = await store.users.upsert(email, patch)
  const modifiedCount = (Object.keys(patch) as (keyof ProfileUpdate)[]).some((key) => before[key] !== after[key]) ? 1 : 0
  return { modifiedCount, user: after, token: deps.sessions.reissue(session, after.user_name) }
}

/** An admin (checked by the route) makes another user an admin; answers how many changed (0 or 1). */
async function makeAdmin(deps: Pick<AccountsDeps, 'store' | 'audit'>, actor: string, email: string): Promise<number> {
  const user = await deps.store.users.get(email)
  if (!user) throw noSuchUser()
  const modified = await deps.store.users.setRole(email, 'admin')
  if (modified > 0) {
    await deps.audit.record({
      actor,
      action: 'user.make-admin',
      target: { type: 'user', id: email, name: user.user_name },
      changes: [{ field: 'role', from: user.role, to: 'admin' }],
    })
  }
  return modified
}

type SignOutDeps = Pick<AccountsDeps, 'store' | 'sessions' | 'revokeSignIns'>

/**
 * Ends every session of an account first (ours to end, whatever Firebase answers), then revokes its
 * Firebase sign-ins. Answers how many sessions ended, and the revocation's failure as the error to throw.
 */
async function endSessionsThenRevoke(deps: SignOutDeps, email: string): Promise<{ ended: number; failure?: DomainError }> {
  const ended = await deps.sessions.endAll(email)
  const uid = (await deps.store.users.get(email))?.firebaseUid
  if (uid === undefined) return { ended }
  try {
    await deps.revokeSignIns(uid)
    return { ended }
  } catch (error) {
    const message = error instanceof DomainError ? error.message : 'Sign-ins cannot be revoked right now, try again shortly'
    return {
      ended,
      failure: unavailable(`${ended} sessions ended, but ${message.charAt(0).toLowerCase()}${message.slice(1)}`, {
        reason: 'revocation-failed',
        endedCount: ended,
      }),
    }
  }
}

/** Signs an account out everywhere (endSessionsThenRevoke); a failed revocation is thrown once the sessions ended. */
async function signOutEverywhere(deps: SignOutDeps, email: string): Promise<number> {
  const { ended, failure } = await endSessionsThenRevoke(deps, email)
  if (failure) throw failure
  return ended
}

/**
 * An admin (checked by the route) signs a user out everywhere (the admin's own sessions too, when it
 * is them). Recorded in the audit log, a failed revocation too (the sessions ended all the same; the
 * entry says the sign-ins were not revoked); answers how many sessions ended.
 */
async function endSessionsOf(deps: SignOutDeps & Pick<AccountsDeps, 'audit'>, actor: string, email: string): Promise<number> {
  const user = await deps.store.users.get(email)
  if (!user) throw noSuchUser()
  const { ended, failure } = await endSessionsThenRevoke(deps, email)
  await deps.audit.record({
    actor,
    action: 'user.end-sessions',
    target: { type: 'user', id: email, name: user.user_name },
    changes: [{ field: 'sessions', from: String(ended), to: '0' }, ...(failure ? [{ field: 'signIns', to: 'not revoked' }] : [])],
  })
  if (failure) throw failure
  return ended
}

export interface ProfileView {
  user: UserRecord
  /** Whether the caller sees the whole record (role included) or only the public profile. */
  whole: boolean
}

/**
 * A profile as the caller may see it: one's own, and anyone's for verified admins (the rule of
 * adminStatus), whole; a contributor's (someone with a published animation) public profile, without
 * the role; anyone else's is the same 404 as an unknown email, so it does not tell who is registered.
 */
async function profileFor(store: Store, session: SessionClaims, email: string): Promise<ProfileView> {
  const user = await store.users.get(email)
  const whole = email === session.email || (await isVerifiedAdmin(store, session))
  if (user && (whole || (await isContributor(store, email)))) return { user, whole }
  throw noSuchUser()
}

/** Whether `email` is an admin: anyone may ask about themselves, only verified admins about someone else. */
async function adminStatus(store: Store, session: SessionClaims, email: string): Promise<boolean> {
  if (email !== session.email && !(await isVerifiedAdmin(store, session))) {
    throw forbidden("Only admins with a verified email may ask about someone else's role")
  }
  // About oneself: whether admin power is usable now, which needs the email verified too.
  return email === session.email ? isVerifiedAdmin(store, session) : isAdmin(store, email)
}
