/**
 * Every query the SQLite adapter runs for lists, searches, packs, favourites and the orphan sweep keeps to
 * an index: the SQL is the one the repositories really prepared (recorded as it ran), explained with
 * EXPLAIN QUERY PLAN. No plan reads a whole table, none sorts what an index gives in order, and each
 * list order reads the index made for it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exportsFor, sampleWumpus } from '../../../test/store-behaviour/samples'
import { sampleSubmission } from '../../../test/store-behaviour/submissions'
import { openRecordingSqlite, type RecordingSqlite } from '../../../test/support/recording-sqlite'
import type { WumpusRecord } from '../port'

let t: RecordingSqlite
/** The SQL each step ran, by step. */
const ran = new Map<string, string[]>()

/** Runs a step, noting the statements it ran. */
async function step(name: string, run: () => Promise<unknown>): Promise<void> {
  const before = new Map(t.runs)
  await run()
  ran.set(
    name,
    [...t.runs].filter(([sql, count]) => count > (before.get(sql) ?? 0)).map(([sql]) => sql),
  )
}

const ADMIN = 'maker@example.com'

beforeAll(async () => {
  t = await openRecordingSqlite()
  const records: WumpusRecord[] = []
  for (let i = 0; i < 40; i++) {
    records.push(
      await t.wumpuses.insert(
        sampleWumpus({
          name: `Wumpus ${i % 2 ? 'dance' : 'wave'} ${i}`,
          tags: [i % 3 ? 'happy' : 'sad', `tag${i % 7}`],
          emoji: [{ char: '🎉', name: 'party popper' }],
          u_email: i % 5 ? ADMIN : 'other@example.com',
          createdAt: new Date(Date.UTC(2026, 0, 1 + i)),
          sensitive: i % 8 === 7,
        }),
      ),
    )
  }
  const first = records[0]!
  await t.wumpuses.setDerived(first._id, first.files.lottie.id, exportsFor(first.files.lottie.id, ['discord']))
  await t.wumpuses.addDownloads(new Map(records.slice(0, 10).map((r, i) => [r._id, i + 1])))
  const remix = await t.wumpuses.insertRemix(
    {
      ...sampleWumpus({ u_email: 'remixer@example.com' }),
      remix: { of: first._id, recipe: { colours: [] }, source: first.files.lottie.id },
    } as never,
    { max: 10 },
  )
  const file = await t.files.put({ bytes: new Uint8Array([1]), contentType: 'image/gif', filename: 'a.gif', purpose: 'animation' })

  await step('count', () => t.wumpuses.count())
  for (const sort of ['new', 'popular'] as const) {
    const page = await t.wumpuses.list({ limit: 5, sort })
    await step(`list ${sort}`, () => t.wumpuses.list({ limit: 5, sort, cursor: page.nextCursor }))
    const all = await t.wumpuses.list({ limit: 5, sort, withSensitive: true })
    await step(`list ${sort} with sensitive`, () => t.wumpuses.list({ limit: 5, sort, withSensitive: true, cursor: all.nextCursor }))
    for (const [label, filters] of [
      ['tag', { tag: 'sad' }],
      ['uploader', { u_email: 'other@example.com' }],
      ['platform', { fits: 'discord' }],
      ['tag and uploader', { tag: 'happy', u_email: ADMIN }],
    ] as const) {
      const filtered = await t.wumpuses.list({ limit: 2, sort, ...filters })
      await step(`list ${sort} by ${label}`, () => t.wumpuses.list({ limit: 2, sort, ...filters, cursor: filtered.nextCursor }))
    }
  }
  // Each its own query words: a search kept from another order would run no query.
  for (const [sort, words] of [
    ['relevance', ['wumpus da', 'wave']],
    ['new', ['wumpus wa', 'dance']],
    ['popular', ['wum', 'wave 1']],
  ] as const) {
    // Relevance is a search's order when none is asked for.
    const order = sort === 'relevance' ? {} : { sort }
    await step(`search ${sort}`, () => t.wumpuses.list({ limit: 5, ...order, q: words[0] }))
    await step(`search ${sort} by tag`, () => t.wumpuses.list({ limit: 5, ...order, q: words[1], tag: 'happy' }))
  }
  await step('tag counts', () => t.wumpuses.listTags())
  await step('emoji counts', () => t.wumpuses.listEmoji())
  await step('find by file', () => t.wumpuses.findByFile(first.files.gif.id))
  await step('remixes', async () => {
    await t.wumpuses.listRemixes({ limit: 5, of: first._id })
    await t.wumpuses.listRemixes({ limit: 5, owner: 'remixer@example.com' })
    await t.wumpuses.countRemixes(first._id)
  })
  expect(remix).not.toBe('full')
  let packId = ''
  await step('pack write', async () => {
    packId = (await t.packs.insert({ name: 'P', description: '', wumpusIds: records.slice(0, 5).map((r) => r._id), createdBy: ADMIN })).id
    await t.packs.update(packId, { wumpusIds: records.slice(2, 8).map((r) => r._id) })
    await t.packs.insertPersonal(
      { name: 'Mine', description: '', wumpusIds: [], createdBy: ADMIN, visibility: 'private' },
      {
        max: 5,
      },
    )
  })
  await step('pack lists', async () => {
    const page = await t.packs.list({ limit: 1 })
    await t.packs.list({ limit: 1, cursor: page.nextCursor })
    const personal = await t.packs.listPersonal(ADMIN, { limit: 1 })
    await t.packs.listPersonal(ADMIN, { limit: 1, cursor: personal.nextCursor })
  })
  await step('favourite toggle', async () => {
    await t.favourites.add(ADMIN, records[3]!._id, { max: 100 })
    await t.favourites.add(ADMIN, records[4]!._id, { max: 100 })
    await t.favourites.remove(ADMIN, records[3]!._id)
  })
  await step('favourite lists', async () => {
    const page = await t.favourites.list(ADMIN, { limit: 1 })
    await t.favourites.list(ADMIN, { limit: 1, cursor: page.nextCursor })
    await t.favourites.ids(ADMIN)
  })
  await step('notifications', async () => {
    const made = []
    for (let i = 0; i < 4; i++) {
      made.push(
        await t.notifications.insert(
          { recipient: ADMIN, kind: 'submission.changes', subject: { kind: 'submission', id: `s${i}`, name: 'S' }, note: '' },
          { keep: 3 },
        ),
      )
    }
    const page = await t.notifications.listByRecipient(ADMIN, { limit: 2 })
    await t.notifications.listByRecipient(ADMIN, { limit: 2, cursor: page.nextCursor })
    await t.notifications.countUnread(ADMIN)
    await t.notifications.markRead(ADMIN, { upTo: made[2]!.id })
    await t.notifications.markRead(ADMIN, {})
  })

  await step('submitter history', async () => {
    await t.submissions.countsBySubmitter(ADMIN)
    await t.reports.countOpenAgainstOwner(ADMIN)
  })
  await step('submission within the waiting cap', async () => {
    for (const u_email of ['a@example.com', 'b@example.com', ADMIN])
      await t.submissions.insert(sampleSubmission({ u_email }), { waitingMax: 5 })
    await t.submissions.countBySubmitter(ADMIN, 'waiting')
  })
  await step('animation delete', () => t.wumpuses.delete(records[5]!._id))
  await step('pack delete', () => t.packs.delete(packId))
  await step('orphan sweep', async () => {
    const createdBefore = new Date(Date.now() + 1000)
    const page = await t.files.listSweepCandidates({ createdBefore, limit: 1 })
    await t.files.listSweepCandidates({ createdBefore, limit: 1, after: page.last })
    const listed = await t.files.list({ createdBefore, limit: 1 })
    await t.files.list({ createdBefore, limit: 1, after: listed[0] })
    await t.files.delete(file.id)
  })
})

afterAll(async () => {
  await t.close()
})

/** The plan of FEW_MEMBERS: one facet's range, each member's row (and whether it is not sensitive: the 'g:' facet), sorted. */
const ONE_FACET_SORTED =
  /SEARCH f USING COVERING INDEX wumpus_facets_newest \(facet=\?\); SEARCH w USING INTEGER PRIMARY KEY \(rowid=\?\); SEARCH g0 EXISTS USING COVERING INDEX wumpus_facets_of \(seq=\? AND facet=\?\); USE TEMP B-TREE FOR ORDER BY/

/** The statements of a step that read or change rows (not BEGIN, COMMIT and the like). */
function queries(name: string): string[] {
  const sqls = ran.get(name)
  if (!sqls) throw new Error(`No step ${name}`)
  return sqls.filter((sql) => /^\s*(SELECT|UPDATE|DELETE|INSERT|WITH)\b/i.test(sql))
}

function plans(name: string): string[] {
  return queries(name).map((sql) => `${sql.replace(/\s+/g, ' ')}\n    => ${t.plan(sql)}`)
}

/**
 * Most downloaded first with filters so rare that sorting their members costs less than walking the
 * popular index to a page (members² < limit × all, sqlite/wumpuses.ts plainPage): the members are read
 * from the filter's range and sorted, at most √(limit × all) of them.
 */
const FEW_MEMBERS = ['list popular by uploader', 'list popular by platform']

describe('SQLite query plans', () => {
  const steps = () => [...ran.keys()]

  it('recorded the statements of every step', () => {
    if (process.env.PRINT_PLANS) for (const name of steps()) console.log(`${name}\n  ${plans(name).join('\n  ')}`)
    expect(steps().length).toBeGreaterThan(20)
    for (const name of steps()) expect(queries(name).length, name).toBeGreaterThan(0)
  })

  it('reads no whole table and sorts nothing an index gives in order', () => {
    const offending = steps()
      .filter((name) => !FEW_MEMBERS.includes(name))
      .flatMap((name) =>
        plans(name)
          .filter((plan) => /=> .*(\bSCAN \w+(?: AS \w+)?(?:;|$)|USE TEMP B-TREE FOR ORDER BY)/m.test(plan))
          .map((plan) => `${name}: ${plan}`),
      )
    expect(offending).toEqual([])
  })

  it.each([
    // Without the sensitive ones: the range of the facet every other animation holds ('g:').
    ['list new', /wumpus_facets_newest \(facet=\? AND/],
    ['list popular', /wumpuses_popular/],
    ['list new with sensitive', /wumpuses_newest/],
    ['list popular with sensitive', /wumpuses_popular/],
    ['list new by tag', /wumpus_facets_newest/],
    ['list new by uploader', /wumpus_facets_newest/],
    ['list new by platform', /wumpus_facets_newest/],
    ['list new by tag and uploader', /wumpus_facets_newest/],
    ['list popular by tag', /wumpuses_popular/],
    ['list popular by uploader', ONE_FACET_SORTED],
    ['list popular by platform', ONE_FACET_SORTED],
    ['list popular by tag and uploader', /wumpuses_popular/],
    ['count', /facet_counts/],
    ['tag counts', /facet_counts/],
    ['emoji counts', /facet_counts/],
    ['pack write', /pack_members_by_pack/],
    ['pack lists', /packs_public_newest[\s\S]*packs_personal_updated|packs_personal_updated[\s\S]*packs_public_newest/],
    ['favourite lists', /favourites_newest/],
    ['animation delete', /favourites_of_wumpus/],
    [
      'submitter history',
      /submissions_by_submitter[\s\S]*wumpus_facets_newest[\s\S]*wumpuses_remixes_by_owner[\s\S]*wumpuses_hidden_by_owner/,
    ],
    ['orphan sweep', /files_oldest[\s\S]*SEARCH c USING PRIMARY KEY/],
    ['notifications', /notifications_by_recipient/],
    ['submission within the waiting cap', /submissions_by_submitter/],
  ])('%s reads its index', (name, index) => {
    expect(plans(name).join('\n')).toMatch(index)
  })

  it("counts a submitter's waiting submissions from their own rows, not every waiting one", () => {
    expect(plans('submission within the waiting cap').join('\n')).not.toMatch(/submissions_by_state/)
  })
})
