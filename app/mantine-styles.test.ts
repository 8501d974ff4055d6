import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

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

describe("Mantine's styles", () => {
  it('include the stylesheet of every Mantine component the app uses', () => {
    const imported = readFileSync(path.join(APP, 'mantine-styles.css'), 'utf8')
    const missing = [...mantineImports()].filter(
      (name) => existsSync(path.join(MANTINE_STYLES, `${name}.css`)) && !imported.includes(`@mantine/core/styles/${name}.css'`),
    )
    expect(missing).toEqual([])
  })
})
