import { useDisclosure } from '@mantine/hooks'
import { Link, useNavigate, useRouter, useRouterState } from '@tanstack/react-router'
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react'
import { OfflineIndicator } from './offline-indicator'
import { useAfterInteractive } from '../lib/after-interactive'
import { useEarlyAction } from '../lib/early-actions'
import { APP_NAME } from '../lib/page-title'
import { useSession, useSessionStore } from '../lib/session-provider'
import classes from './app-layout.module.css'
import buttonClasses from './button.module.css'
import { Logo } from './logo'
import { PlainButton } from './plain-button'
import { Spinner } from './spinner'
import { ThemeToggle } from './theme-toggle'

const MOBILE_MENU_ID = 'mobile-menu'

// Neither shows anything until the browser offers installation or a new version waits: loaded when idle.
const InstallButton = lazy(() => import('./install-button').then((m) => ({ default: m.InstallButton })))
const UpdatePrompt = lazy(() => import('./update-prompt').then((m) => ({ default: m.UpdatePrompt })))

function WhenIdle({ children }: { children: ReactNode }) {
  const ready = useAfterInteractive()
  return ready ? <Suspense fallback={null}>{children}</Suspense> : null
}

/** `headerActions`: what the routes place in the header beside the theme toggle (the notifications bell when signed in). */
export function AppLayout({ children, headerActions }: { children: ReactNode; headerActions?: ReactNode }) {
  const [menuOpened, { toggle: toggleMenu, close: closeMenu }] = useDisclosure(false)
  const burgerRef = useRef<HTMLButtonElement>(null)
  const menuRef = useRef<HTMLElement>(null)
  const pathname = useRouterState({ select: (state) => state.location.pathname })
  const { status } = useSession()

  // Close the mobile menu after every navigation, and when the user signs in or out.
  useEffect(() => {
    closeMenu()
  }, [pathname, status, closeMenu])
  useEarlyAction('menu', toggleMenu)

  // An open menu closes on Escape wherever the focus is, and on a tap anywhere outside it.
  useEffect(() => {
    if (!menuOpened) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      closeMenu()
      burgerRef.current?.focus()
    }
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node | null
      if (target && (menuRef.current?.contains(target) || burgerRef.current?.contains(target))) return
      closeMenu()
    }
    document.addEventListener('keydown', onKey)
    document.addEventListener('pointerdown', onPointer)
    return () => {
      document.removeEventListener('keydown', onKey)
      document.removeEventListener('pointerdown', onPointer)
    }
  }, [menuOpened, closeMenu])

  return (
    <>
      <a href="#main" className={classes.skipLink}>
        Skip to content
      </a>
      <header className={classes.header}>
        <div className={`${classes.container} ${classes.bar}`}>
          <div className={classes.group} data-gap="lg">
            <Link to="/" className={classes.brand} aria-label={`${APP_NAME} home`}>
              <Logo />
              <span>{APP_NAME}</span>
            </Link>
            <nav aria-label="Main" className={`${classes.group} ${classes.wideOnly}`} data-gap="4">
              <NavLinks />
            </nav>
          </div>
          <div className={classes.group} data-gap="xs">
            <div className={`${classes.group} ${classes.wideOnly}`} data-gap="xs">
              <WhenIdle>
                <InstallButton />
              </WhenIdle>
              <AccountLinks signOutLabel="SignOut" />
            </div>
            {headerActions}
            <ThemeToggle />
            <button
              ref={burgerRef}
              type="button"
              className={`${classes.burger} ${classes.narrowOnly}`}
              onClick={toggleMenu}
              aria-label={menuOpened ? 'Close menu' : 'Open menu'}
              aria-expanded={menuOpened}
              aria-controls={MOBILE_MENU_ID}
              data-early-action="menu"
              // index.html's early tap script may have set aria-busy on the server-rendered button.
              suppressHydrationWarning
            >
              <span className={classes.burgerLines} data-opened={menuOpened || undefined} />
            </button>
          </div>
        </div>
        {menuOpened && (
          <nav ref={menuRef} id={MOBILE_MENU_ID} aria-label="Main" className={`${classes.mobileMenu} ${classes.narrowOnly}`}>
            <NavLinks />
            <YourThings />
            <div className={classes.mobileAccount}>
              <WhenIdle>
                <InstallButton />
              </WhenIdle>
              <AccountLinks signOutLabel="Sign Out" />
            </div>
          </nav>
        )}
        <OfflineIndicator />
      </header>
      <WhenIdle>
        <UpdatePrompt />
      </WhenIdle>
      <main id="main" tabIndex={-1} className={classes.main}>
        <div className={`${classes.container} ${classes.page}`}>{children}</div>
      </main>
      <footer className={classes.footer}>
        <p className={`${classes.container} ${classes.footerText}`}>
          {APP_NAME}: animated mascot stickers in GIF, APNG and Lottie.{' '}
          <Link to="/about" className={classes.footerLink}>
            About
          </Link>
        </p>
      </footer>
    </>
  )
}

function NavLinks() {
  const { status } = useSession()
  return (
    <>
      <Link to="/" className={classes.navLink} activeOptions={{ exact: true, includeSearch: false }}>
        Home
      </Link>
      <Link to="/packs" className={classes.navLink}>
        Packs
      </Link>
      <Link to="/about" className={classes.navLink}>
        About
      </Link>
      <Link to="/saved" className={classes.navLink}>
        Saved
      </Link>
      {status === 'signed-in' && (
        <Link to="/dashboard" className={classes.navLink}>
          Dashboard
        </Link>
      )}
    </>
  )
}

/** The phone menu's way to one's own things, one tap each (on wide screens the dashboard's sidebar shows them). */
function YourThings() {
  const { status } = useSession()
  if (status !== 'signed-in') return null
  return (
    <div className={classes.yourThings} role="group" aria-label="Yours">
      <Link to="/dashboard/favourites" className={classes.navLink}>
        Favourites
      </Link>
      <Link to="/dashboard/my-packs" className={classes.navLink}>
        My packs
      </Link>
      <Link to="/dashboard/own" className={classes.navLink}>
        My animation
      </Link>
    </div>
  )
}

/** Signed out: Sign In and Sign Up. Signed in: who (name, else email) and Sign Out. */
function AccountLinks({ signOutLabel }: { signOutLabel: 'SignOut' | 'Sign Out' }) {
  const session = useSession()
  const store = useSessionStore()
  const router = useRouter()
  const navigate = useNavigate()
  const [signingOut, setSigningOut] = useState(false)

  if (session.status === 'loading') return <Spinner size="sm" label="Checking your sign-in" />
  if (session.status === 'signed-out') {
    return (
      <>
        <Link to="/signIn" className={buttonClasses.button} data-variant="default">
          Sign In
        </Link>
        <Link to="/signUp" className={buttonClasses.button}>
          Sign Up
        </Link>
      </>
    )
  }

  async function signOut() {
    setSigningOut(true)
    // Leave a protected page first (an animation's page is one, but for shared remixes and saved stickers), so
    // signing out does not bounce the user to the sign-in screen.
    if (router.state.matches.some((match) => match.routeId === '/_authenticated' || match.routeId === '/wumpus/$id')) {
      await navigate({ to: '/' })
    }
    await store.signOut()
    setSigningOut(false)
  }

  return (
    <>
      <p className={classes.userName}>{session.user.name || session.user.email}</p>
      <PlainButton variant="default" onClick={() => void signOut()} loading={signingOut}>
        {signOutLabel}
      </PlainButton>
    </>
  )
}
