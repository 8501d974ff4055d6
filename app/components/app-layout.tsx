import { Anchor, Burger, Button, Container, Group, Loader, Stack, Text } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { Link, useNavigate, useRouter, useRouterState } from '@tanstack/react-router'
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react'
import { OfflineIndicator } from '../features/offline/components/offline-indicator'
import { useAfterInteractive } from '../lib/after-interactive'
import { APP_NAME } from '../lib/page-title'
import { useSession, useSessionStore } from '../lib/session-provider'
import classes from './app-layout.module.css'
import { Logo } from './logo'
import { ButtonLink } from './router-links'
import { ThemeToggle } from './theme-toggle'

const MOBILE_MENU_ID = 'mobile-menu'

// Neither shows anything until the browser offers installation or a new version waits: loaded when idle.
const InstallButton = lazy(() => import('../features/offline/components/install-button').then((m) => ({ default: m.InstallButton })))
const UpdatePrompt = lazy(() => import('../features/offline/components/update-prompt').then((m) => ({ default: m.UpdatePrompt })))

function WhenIdle({ children }: { children: ReactNode }) {
  const ready = useAfterInteractive()
  return ready ? <Suspense fallback={null}>{children}</Suspense> : null
}

export function AppLayout({ children }: { children: ReactNode }) {
  const [menuOpened, { toggle: toggleMenu, close: closeMenu }] = useDisclosure(false)
  const burgerRef = useRef<HTMLButtonElement>(null)
  const pathname = useRouterState({ select: (state) => state.location.pathname })

  // Close the mobile menu after every navigation.
  useEffect(() => {
    closeMenu()
  }, [pathname, closeMenu])

  return (
    <>
      <a href="#main" className={classes.skipLink}>
        Skip to content
      </a>
      <header className={classes.header}>
        <Container size="xl">
          <Group h={60} justify="space-between" wrap="nowrap">
            <Group gap="lg" wrap="nowrap">
              <Link to="/" className={classes.brand} aria-label={`${APP_NAME} home`}>
                <Logo />
                <span>{APP_NAME}</span>
              </Link>
              <Group component="nav" aria-label="Main" gap={4} visibleFrom="sm">
                <NavLinks />
              </Group>
            </Group>
            <Group gap="xs" wrap="nowrap">
              <Group gap="xs" visibleFrom="sm" wrap="nowrap">
                <WhenIdle>
                  <InstallButton />
                </WhenIdle>
                <AccountLinks signOutLabel="SignOut" />
              </Group>
              <ThemeToggle />
              <Burger
                ref={burgerRef}
                hiddenFrom="sm"
                opened={menuOpened}
                onClick={toggleMenu}
                aria-label={menuOpened ? 'Close menu' : 'Open menu'}
                aria-expanded={menuOpened}
                aria-controls={MOBILE_MENU_ID}
              />
            </Group>
          </Group>
        </Container>
        {menuOpened && (
          <Stack
            component="nav"
            id={MOBILE_MENU_ID}
            aria-label="Main"
            gap={4}
            hiddenFrom="sm"
            className={classes.mobileMenu}
            onKeyDown={(event) => {
              if (event.key !== 'Escape') return
              closeMenu()
              burgerRef.current?.focus()
            }}
          >
            <NavLinks />
            <Stack gap="xs" mt="xs">
              <WhenIdle>
                <InstallButton />
              </WhenIdle>
              <AccountLinks signOutLabel="Sign Out" />
            </Stack>
          </Stack>
        )}
        <OfflineIndicator />
      </header>
      <WhenIdle>
        <UpdatePrompt />
      </WhenIdle>
      <main id="main" tabIndex={-1} className={classes.main}>
        <Container size="xl" py="lg">
          {children}
        </Container>
      </main>
      <footer className={classes.footer}>
        <Container size="xl">
          <Text size="sm" c="dimmed">
            {APP_NAME}: animated mascot stickers in GIF, APNG and Lottie.{' '}
            <Anchor component={Link} to="/about" size="sm" underline="always">
              About
            </Anchor>
          </Text>
        </Container>
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

/** Signed out: Sign In and Sign Up. Signed in: who (name, else email) and Sign Out. */
function AccountLinks({ signOutLabel }: { signOutLabel: 'SignOut' | 'Sign Out' }) {
  const session = useSession()
  const store = useSessionStore()
  const router = useRouter()
  const navigate = useNavigate()
  const [signingOut, setSigningOut] = useState(false)

  if (session.status === 'loading') return <Loader size="sm" aria-label="Checking your sign-in" />
  if (session.status === 'signed-out') {
    return (
      <>
        <ButtonLink to="/signIn" variant="default">
          Sign In
        </ButtonLink>
        <ButtonLink to="/signUp">Sign Up</ButtonLink>
      </>
    )
  }

  async function signOut() {
    setSigningOut(true)
    // Leave a protected page first, so signing out does not bounce the user to the sign-in screen.
    if (router.state.matches.some((match) => match.routeId === '/_authenticated')) await navigate({ to: '/' })
    await store.signOut()
    setSigningOut(false)
  }

  return (
    <>
      <Text fw={600} truncate="end" maw={220} className={classes.userName}>
        {session.user.name || session.user.email}
      </Text>
      <Button variant="default" onClick={() => void signOut()} loading={signingOut}>
        {signOutLabel}
      </Button>
    </>
  )
}
