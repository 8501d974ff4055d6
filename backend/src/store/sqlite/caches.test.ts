/**
 * What the SQLite adapter keeps of searches, list totals and tag and emoji counts survives writes that do
 * not change what they count (a render result, a remix's writes, a rename no kept search matches), and
 * is forgotten when they do. Whether a cache answered is seen in the statements that ran (recorded).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { exportsFor, sampleWumpus } from '../../../test/store-behaviour/samples'
import { openRecordingSqlite, type RecordingSqlite } from '../../../test/support/recording-sqlite'
import type { NewWumpus, RemixInfo, WumpusRecord } from '../port'

let t: RecordingSqlite
let records: WumpusRecord[]

beforeEach(async () => {
  t = await openRecordingSqlite()
  records = []
  for (let i = 0; i < 6; i++) {
    records.push(
      await t.wumpuses.insert(
        sampleWumpus({
          name: i % 2 ? `Dancing wumpus ${i}` : `Waving wumpus ${i}`,
          tags: i % 2 ? ['dance'] : ['wave'],
          emoji: [{ char: i % 2 ? '💃' : '👋', name: i % 2 ? 'dancer' : 'waving hand' }],
        }),
      ),
    )
  }
})

afterEach(async () => {
  await t.close()
})

/** Everything kept: three searches, filtered and whole totals, tag and emoji counts. Answers what they gave. */
async function readAll() {
  const ids = (page: { items: WumpusRecord[]; total: number }) => ({ ids: page.items.map((w) => w._id).sort(), total: page.total })
  return {
    dancing: ids(await t.wumpuses.list({ limit: 10, q: 'danc' })),
    waveNewest: ids(await t.wumpuses.list({ limit: 10, q: 'waving', sort: 'new' })),
    onDiscord: ids(await t.wumpuses.list({ limit: 10, q: 'wumpus', fits: 'discord' })),
    byTag: ids(await t.wumpuses.list({ limit: 10, tag: 'wave' })),
    fitsDiscord: ids(await t.wumpuses.list({ limit: 10, fits: 'discord' })),
    all: ids(await t.wumpuses.list({ limit: 10 })),
    count: await t.wumpuses.count(),
    tags: await t.wumpuses.listTags(),
    emoji: await t.wumpuses.listEmoji(),
  }
}

/** Runs of the statements that fill each cache. */
function cacheFills() {
  return {
    search: t.runsOf('AS postings'),
    totals: t.runsOf('FROM facet_counts WHERE facet = ?') + t.runsOf("facet >= 'u:'"),
    counts: t.runsOf('FROM facet_counts WHERE facet >= ? AND facet < ?'),
  }
}

const remixOf = (of: WumpusRecord): NewWumpus & { remix: RemixInfo } => ({
  ...sampleWumpus({ name: 'Dancing remix', u_email: 'remixer@example.com' }),
  remix: { of: of._id, recipe: { colours: { '8c9eff': '#e0457b' } }, source: of.files.lottie.id, visibility: 'private' },
})

describe('SQLite caches', () => {
  it('survive a render result that changes no filter, and a remix written and changed', async () => {
    const before = await readAll()
    const filled = cacheFills()
    const dancer = records[1]!
    // A render result with no export ready (previews only): what lists show of it, nothing they count.
    await t.wumpuses.setDerived(dancer._id, dancer.files.lottie.id, exportsFor(dancer.files.lottie.id, []))
    const remix = await t.wumpuses.insertRemix(remixOf(dancer), { max: 5 })
    if (remix === 'full') throw new Error('No room for the remix')
    await t.wumpuses.update(remix._id, { name: 'Dancing remix, again' })
    await t.wumpuses.setDerived(remix._id, remix.files.lottie.id, exportsFor(remix.files.lottie.id, ['discord']))
    expect(await readAll()).toEqual(before)
    expect(cacheFills()).toEqual(filled)
  })

  it('survive a rename that no kept search matches, before or after', async () => {
    const sleepy = await t.wumpuses.insert(sampleWumpus({ name: 'Sleepy cat' }))
    const before = await readAll()
    const filled = cacheFills()
    await t.wumpuses.update(sleepy._id, { name: 'Sleepy dog' })
    expect(await readAll()).toEqual(before)
    expect(cacheFills()).toEqual(filled)
  })

  it('forget what a render result with a ready export changes: that filter and the searches filtered by it', async () => {
    const before = await readAll()
    const filled = cacheFills()
    const dancer = records[1]!
    await t.wumpuses.setDerived(dancer._id, dancer.files.lottie.id, exportsFor(dancer.files.lottie.id, ['discord']))
    const after = await readAll()
    expect(after).toEqual({
      ...before,
      onDiscord: { ids: [dancer._id], total: 1 },
      fitsDiscord: { ids: [dancer._id], total: 1 },
    })
    // The discord search and total were read again; the other searches, totals and counts were kept.
    expect(cacheFills()).toEqual({ search: filled.search + 1, totals: filled.totals + 1, counts: filled.counts })
  })

  it('forget the searches, totals and counts an edit changes', async () => {
    const before = await readAll()
    const waver = records[0]!
    await t.wumpuses.update(waver._id, { name: 'Dancing now', tags: ['dance'], emoji: [{ char: '💃', name: 'dancer' }] })
    const after = await readAll()
    expect(after.dancing.ids).toEqual([...before.dancing.ids, waver._id].sort())
    expect(after.waveNewest.ids).toEqual(before.waveNewest.ids.filter((id) => id !== waver._id))
    expect(after.byTag.total).toBe(before.byTag.total - 1)
    expect(after.tags).toEqual([
      { tag: 'dance', count: 4 },
      { tag: 'wave', count: 2 },
    ])
    expect(after.emoji).toEqual([
      { char: '💃', count: 4 },
      { char: '👋', count: 2 },
    ])
    const added = await t.wumpuses.insert(sampleWumpus({ name: 'Dancing again' }))
    const more = await readAll()
    expect(more.dancing.ids).toContain(added._id)
    expect(more.count).toBe(before.count + 1)
    await t.wumpuses.delete(added._id)
    expect((await readAll()).count).toBe(before.count)
  })
})
