import { cert, getApps, initializeApp, applicationDefault, type App } from 'firebase-admin/app'
import { getAuth, type Auth } from 'firebase-admin/auth'
import type { Config } from '../config'

/**
 * The firebase-admin Auth client for this deployment. Against the emulator it needs no credentials;
 * with a real project it uses GOOGLE_APPLICATION_CREDENTIALS or the platform's default credentials.
 */
export function firebaseAdminAuth(config: Config): Auth {
  const { projectId, authEmulatorHost } = config.firebase
  // firebase-admin reads the emulator address from the environment, and only from there.
  if (authEmulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = authEmulatorHost
  const name = `wumpus-${projectId}`
  const app: App =
    getApps().find((a) => a.name === name) ??
    initializeApp(authEmulatorHost ? { projectId } : { projectId, credential: credentialFromEnv() }, name)
  return getAuth(app)
}

function credentialFromEnv() {
  const json = process.env.FIREBASE_SERVICE_ACCOUNT_JSON
  return json ? cert(JSON.parse(json)) : applicationDefault()
}
