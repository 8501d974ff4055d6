import { describe, expect, it } from 'vitest'
import { NAME_PATTERN, nameWithinRules, USER_NAME_MAX } from './user'

describe('nameWithinRules', () => {
  it('keeps a name from a sign-in within the name rules', () => {
    expect(nameWithinRules('Ana Lovelace')).toBe('Ana Lovelace')
    expect(nameWithinRules('  José   Müller ')).toBe('Jose Muller')
    expect(nameWithinRules('Ana <b>Bold</b> & co.')).toBe('Ana b Bold b co.')
    expect(nameWithinRules('Привет')).toBe('')
    expect(nameWithinRules('x'.repeat(100))).toHaveLength(USER_NAME_MAX)
    for (const name of ['José', 'a<script>', 'd.o_e 1']) expect(nameWithinRules(name)).toMatch(NAME_PATTERN)
  })
})
