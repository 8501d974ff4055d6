import { Anchor, Burger, Button, Container, Group, Stack, Text } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { Link, useRouterState } from '@tanstack/react-router'
import { useEffect, useRef, type ReactNode } from 'react'
import { APP_NAME } from '../lib/page-title'
import { SIGN_IN_PATH, SIGN_UP_PATH } from '../lib/paths'
import classes from './app-layout.module.css'
import { Logo } from './logo'
import { ThemeToggle } from './theme-toggle'

const MOBILE_MENU_ID = 'mobile-menu'

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
              <Group gap="xs" visibleFrom="sm">
                <AccountLinks />
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
              <AccountLinks />
            </Stack>
          </Stack>
        )}
      </header>
      <main id="main" tabIndex={-1} className={classes.main}>
        <Container size="xl" py="lg">
          {children}
        </Container>
      </main>
      <footer className={classes.footer}>
        <Container size="xl">
          <Text size="sm" c="dimmed">
            {APP_NAME}: animated mascot stickers in GIF, APNG and Lottie.{' '}
            <Anchor component={Link} to="/about" size="sm">
              About
            </Anchor>
          </Text>
        </Container>
      </footer>
    </>
  )
}

function NavLinks() {
  return (
    <>
      <Link to="/" className={classes.navLink} activeOptions={{ exact: true }}>
        Home
      </Link>
      <Link to="/about" className={classes.navLink}>
        About
      </Link>
    </>
  )
}

// Signed out is the only state until sign-in exists; those screens arrive in a later slice.
function AccountLinks() {
  return (
    <>
      <Button component="a" href={SIGN_IN_PATH} variant="default">
        Sign In
      </Button>
      <Button component="a" href={SIGN_UP_PATH}>
        Sign Up
      </Button>
    </>
  )
}
