// A sticker submission being written (the `submission-drafts` store, keyed by email): its fields and the file
// picked, so a reload or a phone that drops the tab does not cost the person their work. Cleared once sent,
// and on sign-out with the rest of the user's data (personal-data.ts).
import { del, get, set } from 'idb-keyval'
import { offlineStore } from './stores'

export interface SubmissionDraft<Fields> {
  fields: Fields
  /** The picked file as a Blob (IndexedDB keeps Blobs), with its name. */
  file?: { blob: Blob; name: string }
}

const draftStore = () => offlineStore('submission-drafts')

export async function readSubmissionDraft<Fields>(email: string): Promise<SubmissionDraft<Fields> | undefined> {
  return get<SubmissionDraft<Fields>>(email, draftStore()).catch(() => undefined)
}

/** A full disk or a closed database only loses the draft, never the form: failures are ignored. */
export async function keepSubmissionDraft<Fields>(email: string, draft: SubmissionDraft<Fields>): Promise<void> {
  await set(email, draft, draftStore()).catch(() => {})
}

export async function forgetSubmissionDraft(email: string): Promise<void> {
  await del(email, draftStore()).catch(() => {})
}
