import { describe, expect, it } from 'vitest'
import type { ColourSlots } from '../../src/store/port'
import { MALFORMED_IDS, sampleFiles, sampleWumpus, type StoreInUse, UNKNOWN_ID } from './samples'

/** Colour slots on the animations' records. */
export function describeColourSlotBehaviour(t: StoreInUse): void {
  describe('colour slots', () => {
    const slotsOf = (lottieId: string, colour = '5966f2'): ColourSlots => ({
      source: lottieId,
      version: 1,
      slots: [
        { id: colour, colour: `#${colour}`, share: 0.75 },
        { id: '222222', colour: '#222222', share: 0.25 },
      ],
    })

    it('are absent on a new record, then set while the Lottie is the given one, read back everywhere, keeping updatedAt and the revision', async () => {
      const record = await t.store.wumpuses.insert(sampleWumpus())
      expect(record.colourSlots).toBeUndefined()
      expect((await t.store.wumpuses.get(record._id))!.colourSlots).toBeUndefined()
      const colourSlots = slotsOf(record.files.lottie.id)
      for (const id of [UNKNOWN_ID, ...MALFORMED_IDS]) expect(await t.store.wumpuses.setColourSlots(id, colourSlots)).toBe(false)
      expect(await t.store.wumpuses.setColourSlots(record._id, slotsOf(UNKNOWN_ID))).toBe(false)
      expect(await t.store.wumpuses.get(record._id)).toEqual(record)

      const revision = t.store.wumpuses.revision()
      const extra = { ...colourSlots, extra: 'dropped', slots: colourSlots.slots.map((slot) => ({ ...slot, members: ['#5966f2'] })) }
      expect(await t.store.wumpuses.setColourSlots(record._id, extra)).toBe(true)
      expect(t.store.wumpuses.revision()).toBe(revision)
      expect(await t.store.wumpuses.get(record._id)).toEqual({ ...record, colourSlots })
      expect((await t.store.wumpuses.list({ limit: 10 })).items).toEqual([{ ...record, colourSlots }])
      // Other writes keep them.
      expect((await t.store.wumpuses.update(record._id, { name: 'Renamed' }))?.colourSlots).toEqual(colourSlots)
      const derived = { source: record.files.lottie.id, version: 1, madeAt: new Date(), exports: [] }
      expect((await t.store.wumpuses.setDerived(record._id, record.files.lottie.id, derived))?.colourSlots).toEqual(colourSlots)
      // Set again, they are replaced.
      const next = slotsOf(record.files.lottie.id, 'e0457b')
      expect(await t.store.wumpuses.setColourSlots(record._id, next)).toBe(true)
      expect((await t.store.wumpuses.get(record._id))!.colourSlots).toEqual(next)
    })

    it('are refused once the Lottie was replaced, and those of the new one taken', async () => {
      const record = await t.store.wumpuses.insert(sampleWumpus())
      const before = slotsOf(record.files.lottie.id)
      await t.store.wumpuses.setColourSlots(record._id, before)
      const { lottie } = sampleFiles()
      // The record keeps the slots of the Lottie it had: whoever reads them compares their source.
      expect((await t.store.wumpuses.update(record._id, { files: { ...record.files, lottie } }))?.colourSlots).toEqual(before)
      expect(await t.store.wumpuses.setColourSlots(record._id, slotsOf(record.files.lottie.id, 'e0457b'))).toBe(false)
      expect((await t.store.wumpuses.get(record._id))!.colourSlots).toEqual(before)
      expect(await t.store.wumpuses.setColourSlots(record._id, slotsOf(lottie.id, 'e0457b'))).toBe(true)
      expect((await t.store.wumpuses.get(record._id))!.colourSlots).toEqual(slotsOf(lottie.id, 'e0457b'))
    })

    it('are kept across close and reopen', async () => {
      const record = await t.store.wumpuses.insert(sampleWumpus())
      const colourSlots = slotsOf(record.files.lottie.id)
      await t.store.wumpuses.setColourSlots(record._id, colourSlots)
      const reopened = await t.subject.reopen()
      expect((await reopened.wumpuses.get(record._id))!.colourSlots).toEqual(colourSlots)
    })
  })
}
