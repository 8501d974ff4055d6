import { createTheme, localStorageColorSchemeManager, type CSSVariablesResolver } from '@mantine/core'

/** localStorage key of the light/dark choice; index.html reads it too, before the first paint. */
export const THEME_STORAGE_KEY = 'theme'

export const colorSchemeManager = localStorageColorSchemeManager({ key: THEME_STORAGE_KEY })

// Shades picked for WCAG AA (4.5:1): indigo 7 with white text is 4.98:1 in light, indigo 8 is 5.67:1 in dark.
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji"',
  headings: {
    fontWeight: '700',
    // Long headings such as the gallery count stay on two lines at 375 px.
    sizes: { h1: { fontSize: 'clamp(1.625rem, 1.2rem + 1.8vw, 2.125rem)', lineHeight: '1.25' } },
  },
  components: {
    // Toasts' close button has no text of its own. (A plain object, not Notification.extend: the theme is
    // on every page and must not pull the Notification component in.)
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } },
  },
})

// Mantine's default "dimmed" grays are below 4.5:1 on both backgrounds; use darker/lighter ones. (Written into
// index.html with the theme's other variables: see theme-provider.tsx.)
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-dimmed': t.colors.gray[7] },
  dark: { '--mantine-color-dimmed': t.colors.dark[1] },
})
