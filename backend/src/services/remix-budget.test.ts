import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DomainError } from '../domain/errors'
import { openTempStore, type TempStore } from '../../test/support/temp-store'
import { createRemixBudget, REMIX_BACKLOG_MAX, REMIX_SHARE_WINDOW_MS } from './remix-budget'

let temp: TempStore
beforeEach(async () => {
  temp = await openTempStore('wumpus-remix-budget-')
})
afterEach(() => temp.close())

/** The refusal admit throws, or undefined when it admits. */
async function refusal(admit: Promise<void>): Promise<DomainError | undefined> {
  try {
    await admit
    return undefined
  } catch (error) {
    if (error instanceof DomainError) return error
    throw error
  }
}

function budget(options: { waitingRemixes?: number; derivedMs?: number; perDay?: number; factor?: number; now?: () => number } = {}) {
  return createRemixBudget({
    store: temp.store,
    derivedMedia: {
      waiting: (priority) => (priority === 'remix' ? (options.waitingRemixes ?? 0) : 0),
      remixRenderMs: () => options.derivedMs ?? 0,
    },
    perDay: options.perDay ?? 3,
    share: 0.5,
    factor: options.factor,
    now: options.now,
  })
}

describe('remix budget', () => {
  it('counts made renders per account and day: past the budget a remix is refused with when to try again', async () => {
    const remixes = budget({ perDay: 2 })
    expect(await refusal(remixes.admit('a@example.com'))).toBeUndefined()
    expect(await refusal(remixes.admit('A@example.com'))).toBeUndefined()
    const refused = (await refusal(remixes.admit('a@example.com')))!
    expect(refused.kind).toBe('rate-limited')
    expect(refused.message).toMatch(/2 remixes today/)
    expect(refused.retryAfterSeconds).toBeGreaterThan(23 * 3600)
    expect(refused.details).toMatchObject({ limit: 'remix-renders', max: 2 })
    // Another account has its own budget; a new budget over the same store (a restart) does not start over.
    expect(await refusal(remixes.admit('b@example.com'))).toBeUndefined()
    expect((await refusal(budget({ perDay: 2 }).admit('a@example.com')))?.kind).toBe('rate-limited')
  })

  it(`refuses remixes while ${REMIX_BACKLOG_MAX} remixes wait for their files`, async () => {
    expect(await refusal(budget({ waitingRemixes: REMIX_BACKLOG_MAX - 1 }).admit('a@example.com'))).toBeUndefined()
    const refused = (await refusal(budget({ waitingRemixes: REMIX_BACKLOG_MAX }).admit('b@example.com')))!
    expect(refused).toMatchObject({ kind: 'busy', details: { reason: 'remix-backlog' } })
    expect(refused.retryAfterSeconds).toBeGreaterThan(0)
  })

  it('refuses remixes once they took their share of the render worker in the last window, and admits them as it ages out', async () => {
    let clock = 1_000_000
    const remixes = budget({ perDay: 100, now: () => clock })
    remixes.spent(0.3 * REMIX_SHARE_WINDOW_MS)
    expect(await refusal(remixes.admit('a@example.com'))).toBeUndefined()
    remixes.spent(0.3 * REMIX_SHARE_WINDOW_MS)
    const refused = (await refusal(remixes.admit('b@example.com')))!
    expect(refused).toMatchObject({ kind: 'busy', details: { reason: 'remix-share' } })
    expect(refused.retryAfterSeconds).toBeGreaterThan(0)
    clock += REMIX_SHARE_WINDOW_MS + 1
    expect(await refusal(remixes.admit('b@example.com'))).toBeUndefined()
    // The previews and chat app files of remixes count too.
    expect((await refusal(budget({ derivedMs: REMIX_SHARE_WINDOW_MS }).admit('c@example.com')))?.kind).toBe('busy')
  })

  it('lets RATE_LIMIT_FACTOR multiply the day’s renders, the backlog and the share, as it does every limit', async () => {
    const lifted = budget({ perDay: 1, factor: 3, waitingRemixes: REMIX_BACKLOG_MAX, derivedMs: REMIX_SHARE_WINDOW_MS })
    for (let i = 0; i < 3; i++) expect(await refusal(lifted.admit('a@example.com'))).toBeUndefined()
    expect((await refusal(lifted.admit('a@example.com')))?.details).toMatchObject({ limit: 'remix-renders', max: 3 })
  })
})
