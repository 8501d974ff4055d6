import { MantineContext, MantineThemeProvider, useProviderColorScheme } from '@mantine/core'
import type { ReactNode } from 'react'
import { colorSchemeManager, theme } from './theme'

const getRootElement = () => document.documentElement

/**
 * MantineProvider without the <style> elements it computes from the theme on every render: index.html
 * carries that CSS, written once (mantine-styles.test.ts checks it is what Mantine computes), and the code
 * that builds it (2 KB gzip) stays out of every page's scripts. The same context, theme and color scheme.
 */
export function ThemeProvider({ env, children }: { env?: 'default' | 'test'; children: ReactNode }) {
  const { colorScheme, setColorScheme, clearColorScheme } = useProviderColorScheme({
    manager: colorSchemeManager,
    defaultColorScheme: 'auto',
    forceColorScheme: undefined,
    getRootElement,
  })
  return (
    <MantineContext
      value={{
        colorScheme,
        setColorScheme,
        clearColorScheme,
        getRootElement,
        classNamesPrefix: 'mantine',
        cssVariablesSelector: ':root',
        withStaticClasses: true,
        deduplicateInlineStyles: false,
        env,
      }}
    >
      <MantineThemeProvider theme={theme}>{children}</MantineThemeProvider>
    </MantineContext>
  )
}
