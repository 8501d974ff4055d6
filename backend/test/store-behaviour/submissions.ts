import { describe, expect, it } from 'vitest'
import { InvalidCursorError, type NewSubmission } from '../../src/store/port'
import { MALFORMED_IDS, type StoreInUse, UNKNOWN_ID } from './samples'

export function sampleSubmission(overrides: Partial<NewSubmission> = {}): NewSubmission {
  return {
    u_email: 'maker@example.com',
    u_name: 'Maker',
    name: 'Waving Friend',
    description: 'A friendly wave for every chat',
    tags: ['wave'],
    emoji: [{ char: '👋', name: 'waving hand', shortcode: 'wave' }],
    keywords: ['hello'],
    licence: 'CC-BY-4.0',
    credit: 'Maker',
    source: '',
    original: true,
    sensitive: false,
    file: { id: 'abc000000000000000000001', filename: 'wave.json' },
    ...overrides,
  }
}

/** The submissions repository: records, state-guarded writes, a submitter's list newest first, a state's oldest first. */
export function describeSubmissionBehaviour(t: StoreInUse): void {
  describe('submissions', () => {
    it('inserts a waiting submission and reads it back, after a reopen too', async () => {
      const inserted = await t.store.submissions.insert(sampleSubmission())
      expect(inserted).toMatchObject({ ...sampleSubmission(), state: 'waiting' })
      expect(inserted.id).toMatch(/^[0-9a-f]{24}$/)
      expect(await t.store.submissions.get(inserted.id)).toEqual(inserted)
      t.store = await t.subject.reopen()
      expect(await t.store.submissions.get(inserted.id)).toEqual(inserted)
      for (const id of [UNKNOWN_ID, ...MALFORMED_IDS]) expect(await t.store.submissions.get(id)).toBeUndefined()
    })

    it('writes and deletes only while the submission is in one of the states given', async () => {
      const { id } = await t.store.submissions.insert(sampleSubmission())
      expect(await t.store.submissions.update(id, { name: 'Never' }, { whileStates: ['changes'] })).toBeUndefined()
      const asked = await t.store.submissions.update(id, { state: 'changes', note: 'Loop it' }, { whileStates: ['waiting'] })
      expect(asked).toMatchObject({ state: 'changes', note: 'Loop it', name: 'Waving Friend' })
      expect(await t.store.submissions.delete(id, { whileStates: ['waiting'] })).toBeUndefined()
      const published = await t.store.submissions.update(
        id,
        { state: 'published', wumpusId: UNKNOWN_ID, file: null, note: null },
        { whileStates: ['changes'] },
      )
      expect(published).toMatchObject({ state: 'published', wumpusId: UNKNOWN_ID })
      expect(published?.file).toBeUndefined()
      expect(published?.note).toBeUndefined()
      expect(await t.store.submissions.get(id)).toEqual(published)
      const other = await t.store.submissions.insert(sampleSubmission())
      expect(await t.store.submissions.delete(other.id, { whileStates: ['waiting', 'changes'] })).toEqual(other)
      expect(await t.store.submissions.get(other.id)).toBeUndefined()
      expect(await t.store.submissions.update(UNKNOWN_ID, { name: 'x' }, { whileStates: ['waiting'] })).toBeUndefined()
    })

    it('lists a submitter’s newest first and a state’s oldest first, paged, and counts by state', async () => {
      const base = Date.UTC(2026, 0, 1)
      const ann = await Promise.all(
        [0, 1, 2, 3].map((i) =>
          t.store.submissions.insert(sampleSubmission({ u_email: 'ann@example.com', createdAt: new Date(base + i * 1000) })),
        ),
      )
      const bo = await t.store.submissions.insert(sampleSubmission({ u_email: 'bo@example.com', createdAt: new Date(base + 1500) }))
      await t.store.submissions.update(ann[1]!.id, { state: 'refused', note: 'No' }, { whileStates: ['waiting'] })

      const walk = async (list: (cursor?: string) => Promise<{ items: { id: string }[]; nextCursor?: string }>) => {
        const seen: string[] = []
        let cursor: string | undefined
        do {
          const page = await list(cursor)
          seen.push(...page.items.map((item) => item.id))
          cursor = page.nextCursor
        } while (cursor)
        return seen
      }
      expect(await walk((cursor) => t.store.submissions.listBySubmitter('ann@example.com', { limit: 3, cursor }))).toEqual(
        [...ann].reverse().map((s) => s.id),
      )
      expect(await walk((cursor) => t.store.submissions.listByState('waiting', { limit: 2, cursor }))).toEqual([
        ann[0]!.id,
        bo.id,
        ann[2]!.id,
        ann[3]!.id,
      ])
      expect((await t.store.submissions.listByState('refused', { limit: 10 })).items.map((s) => s.id)).toEqual([ann[1]!.id])
      expect(await t.store.submissions.countBySubmitter('ann@example.com', 'waiting')).toBe(3)
      expect(await t.store.submissions.countBySubmitter('ann@example.com', 'refused')).toBe(1)
      expect(await t.store.submissions.countBySubmitter('nobody@example.com', 'waiting')).toBe(0)
      expect(await t.store.submissions.countsBySubmitter('ann@example.com')).toEqual({ waiting: 3, changes: 0, refused: 1, published: 0 })
      expect(await t.store.submissions.countsBySubmitter('bo@example.com')).toEqual({ waiting: 1, changes: 0, refused: 0, published: 0 })
      expect(await t.store.submissions.countsBySubmitter('nobody@example.com')).toEqual({
        waiting: 0,
        changes: 0,
        refused: 0,
        published: 0,
      })
      // A cursor of one list is refused in the other.
      const { nextCursor } = await t.store.submissions.listBySubmitter('ann@example.com', { limit: 1 })
      await expect(t.store.submissions.listByState('waiting', { limit: 1, cursor: nextCursor })).rejects.toBeInstanceOf(InvalidCursorError)
      await expect(t.store.submissions.listBySubmitter('ann@example.com', { limit: 1, cursor: 'bad' })).rejects.toBeInstanceOf(
        InvalidCursorError,
      )
    })

    it('keeps a submitter within waitingMax however many inserts race, and an edit that makes one wait again too', async () => {
      const waitingMax = 5
      const mine = (overrides: Partial<NewSubmission> = {}) => sampleSubmission({ u_email: 'racer@example.com', ...overrides })
      for (let i = 0; i < waitingMax - 1; i++) expect(await t.store.submissions.insert(mine(), { waitingMax })).not.toBe('full')
      // Another submitter's waiting ones take none of this one's places.
      await t.store.submissions.insert(sampleSubmission({ u_email: 'other@example.com' }), { waitingMax })
      const raced = await Promise.all(Array.from({ length: 8 }, () => t.store.submissions.insert(mine(), { waitingMax })))
      expect(raced.filter((result) => result !== 'full')).toHaveLength(1)
      expect(await t.store.submissions.countBySubmitter('racer@example.com', 'waiting')).toBe(waitingMax)
      expect(await t.store.submissions.insert(mine(), { waitingMax })).toBe('full')

      // Changes asked on one: it no longer waits, so one new one fits; the edit that sends the first back is then full.
      const asked = raced.find((result) => result !== 'full')
      if (!asked) throw new Error('One insert should have passed')
      await t.store.submissions.update(asked.id, { state: 'changes', note: 'Loop it' }, { whileStates: ['waiting'] })
      const edits = await Promise.all([
        t.store.submissions.insert(mine(), { waitingMax }),
        t.store.submissions.update(asked.id, { state: 'waiting', name: 'Again' }, { whileStates: ['changes'], waitingMax }),
      ])
      expect(edits.filter((result) => result === 'full')).toHaveLength(1)
      expect(await t.store.submissions.countBySubmitter('racer@example.com', 'waiting')).toBe(waitingMax)
      // An edit of a waiting one keeps its place; without waitingMax nothing is counted.
      const waiting = (await t.store.submissions.listByState('waiting', { limit: 20 })).items.find(
        (s) => s.u_email === 'racer@example.com',
      )!
      expect(await t.store.submissions.update(waiting.id, { name: 'Renamed' }, { whileStates: ['waiting'], waitingMax })).toMatchObject({
        name: 'Renamed',
      })
      expect(await t.store.submissions.insert(mine())).toMatchObject({ state: 'waiting' })
    })
  })
}
