// Who made a sticker and under which licence it travels, in the words every file we hand out uses: pack
// READMEs and manifests, and the community servers' import archives (pack-zips.ts, pack-manifests.ts,
// pack-imports.ts).
import { LICENCE_LABEL, LICENCE_URL, type Licence } from '../../../contract/licence'
import type { WumpusRecord } from '../store/port'

/** The maker as credited: the credit given, else the contributor who added it. */
export function stickerMaker(record: Pick<WumpusRecord, 'credit' | 'u_name'>): string {
  return record.credit.trim() || record.u_name.trim() || 'a Wumpus Gallery maker'
}

/** "CC BY 4.0 (credit the maker): https://creativecommons.org/licenses/by/4.0/", or "This gallery only". */
export function licenceWords(licence: Licence): string {
  const url = LICENCE_URL[licence]
  return url ? `${LICENCE_LABEL[licence]}: ${url}` : LICENCE_LABEL[licence]
}

/** "By Ana Lima, licence CC BY 4.0 (credit the maker): https://…". */
export function creditLine(record: Pick<WumpusRecord, 'credit' | 'u_name' | 'licence'>): string {
  return `By ${stickerMaker(record)}, licence ${licenceWords(record.licence)}`
}

/** What a README says after the credits, for the licences among them. */
export function licenceNotes(records: ReadonlyArray<Pick<WumpusRecord, 'licence'>>): string[] {
  const licences = new Set(records.map((record) => record.licence))
  const notes: string[] = []
  if (licences.has('gallery-only'))
    notes.push('Stickers under "This gallery only" are shared for your own chats: ask their maker before reusing them anywhere else.')
  if (licences.has('CC-BY-4.0') || licences.has('CC-BY-SA-4.0'))
    notes.push(
      'Stickers under CC BY or CC BY-SA may be reused and changed, crediting their maker as written here (CC BY-SA: under the same licence).',
    )
  return notes
}
