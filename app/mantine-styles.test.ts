import { MantineProvider, useMantineContext, useMantineTheme } from '@mantine/core'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { createElement, type ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { colorSchemeManager, cssVariablesResolver, theme } from './lib/theme'
import { ThemeProvider } from './lib/theme-provider'

const APP = path.resolve(__dirname)
const MANTINE_STYLES = path.resolve(APP, '../node_modules/@mantine/core/styles')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) return sourceFiles(file)
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : []
  })
}

/** Every value imported from @mantine/core anywhere in the app. */
function mantineImports(): Set<string> {
  const names = new Set<string>()
  for (const file of sourceFiles(APP)) {
    for (const match of readFileSync(file, 'utf8').matchAll(/import\s*(type\s*)?\{([^}]*)\}\s*from\s*'@mantine\/core'/g)) {
      if (match[1]) continue
      for (const part of match[2]!.split(',')) {
        const name = part
          .trim()
          .replace(/^type\s+/, '')
          .split(' as ')[0]!
        if (name && !part.trim().startsWith('type ')) names.add(name)
      }
    }
  }
  return names
}

/** The Mantine stylesheets app/mantine-styles.css imports, by file name (`Button.css`). */
function importedStylesheets(): string[] {
  const css = readFileSync(path.join(APP, 'mantine-styles.css'), 'utf8')
  return [...css.matchAll(/@import\s+'@mantine\/core\/styles\/([^']+)'/g)].map((match) => match[1]!)
}

describe("Mantine's styles", () => {
  it('include the stylesheet of every Mantine component the app uses', () => {
    // Each check below passes on an empty list: make sure there is something to check, so a move of
    // Mantine's styles or of the app's imports fails here instead of passing quietly.
    expect(existsSync(MANTINE_STYLES), `Mantine's stylesheets are not in ${MANTINE_STYLES}`).toBe(true)
    const imported = importedStylesheets()
    expect(imported, 'app/mantine-styles.css imports no Mantine stylesheet').not.toEqual([])
    const used = [...mantineImports()].filter((name) => existsSync(path.join(MANTINE_STYLES, `${name}.css`)))
    expect(used, "found no Mantine component with a stylesheet among the app's imports").not.toEqual([])

    expect(used.filter((name) => !imported.includes(`${name}.css`))).toEqual([])
    // An import of a stylesheet Mantine no longer ships would break the build's CSS.
    expect(imported.filter((file) => !existsSync(path.join(MANTINE_STYLES, file)))).toEqual([])
  })

  it('index.html carries the CSS MantineProvider would write for the theme (ThemeProvider writes none)', () => {
    const rendered = renderToString(createElement(MantineProvider, { theme, cssVariablesResolver }))
    const mantine = [...rendered.matchAll(/<style[^>]*>([^<]*)<\/style>/g)].map((match) => match[1]).join('')
    const html = readFileSync(path.join(APP, 'index.html'), 'utf8')
    const carried = /<style data-mantine-theme>([^<]*)<\/style>/.exec(html)?.[1] ?? ''
    expect(comparable(mantine), 'MantineProvider wrote no CSS to compare').not.toBe('')
    // After a change of the theme or of Mantine, paste `mantine` into index.html's <style data-mantine-theme>.
    expect(comparable(carried)).toBe(comparable(mantine))
    expect(renderToString(createElement(ThemeProvider, { children: 'page' }))).toBe('page')
  })

  it("ThemeProvider gives Mantine's components what MantineProvider gives them", () => {
    const seen: unknown[] = []
    const Probe = () => {
      const { colorScheme, getRootElement, ...context } = useMantineContext()
      seen.push({ colorScheme, root: getRootElement(), context: withoutFunctions(context), theme: useMantineTheme() })
      return null
    }
    const probe = (provider: (children: ReactNode) => ReactNode) => renderToString(provider(createElement(Probe)))
    probe((children) => createElement(MantineProvider, { theme, colorSchemeManager, defaultColorScheme: 'auto', env: 'test', children }))
    probe((children) => createElement(ThemeProvider, { env: 'test', children }))
    expect(seen, 'the probe did not render under both providers').toHaveLength(2)
    expect(seen[1]).toEqual(seen[0])
  })
})

/** CSS as text without what formatting changes: comments, white space, quotes, last semicolons. */
function comparable(css: string): string {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/'/g, '"')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{}:;,])\s*/g, '$1')
    .replace(/;}/g, '}')
    .trim()
}

/** The context's values that are not functions, and the names of those that are. */
function withoutFunctions(value: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, typeof item === 'function' ? 'function' : item]))
}
