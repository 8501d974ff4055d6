import { createContext, useContext, useEffect, useSyncExternalStore, type ReactNode } from 'react'
import { ACCESS_TOKEN_KEY } from './api-client'
import { SIGNED_OUT, type Session, type SessionStore } from './session'

const SessionContext = createContext<SessionStore | null>(null)

/** Shares the session store with components, and follows sign-in/out done in other tabs. */
export function SessionProvider({ store, children }: { store: SessionStore; children: ReactNode }) {
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      // key null: another tab cleared the whole storage.
      if (event.key === ACCESS_TOKEN_KEY || event.key === null) store.syncFromStorage()
    }
    window.addEventListener('storage', onStorage)
    return () => window.removeEventListener('storage', onStorage)
  }, [store])
  return <SessionContext value={store}>{children}</SessionContext>
}

/** The session store: exchange, setToken, renew, signOut. */
export function useSessionStore(): SessionStore {
  const store = useContext(SessionContext)
  if (!store) throw new Error('useSessionStore must be used inside <SessionProvider>')
  return store
}

/** Server-rendered pages are for a signed-out visitor, so hydration starts from that too. */
const serverSession = () => SIGNED_OUT

/** The current session, re-rendering when it changes. */
export function useSession(): Session {
  const store = useSessionStore()
  return useSyncExternalStore(store.subscribe, store.getSnapshot, serverSession)
}
