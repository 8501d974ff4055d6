// The submissions API's paths (contract/submissions.ts). Apart from contract/api-paths.ts, whose module the
// home page loads: only the dashboard's submission pages need these.
import { pagedPath } from './api-paths'
import type { SubmissionState } from './submission-states'

/** `POST` a sticker for review (multipart). */
export const SUBMISSIONS_PATH = '/api/submissions'

/** `PUT` (multipart) or `DELETE` one's own submission while it waits. */
export const submissionPath = (id: string) => `${SUBMISSIONS_PATH}/${encodeURIComponent(id)}`

/** `POST { decision, note }` (admins). */
export const submissionDecisionPath = (id: string) => `${submissionPath(id)}/decision`

/** One's own submissions, newest first, a page at a time: `GET /api/me/submissions`. */
export function mySubmissionListPath(page: { limit?: number; cursor?: string | null } = {}): string {
  return pagedPath('/api/me/submissions', page)
}

/** The review queue (admins): one state's submissions, oldest first, a page at a time. */
export function submissionQueuePath(state: SubmissionState, page: { limit?: number; cursor?: string | null } = {}): string {
  return `${pagedPath(SUBMISSIONS_PATH, page)}&state=${state}`
}

/** `GET` (admins): the submitter's other submissions and the open reports against their stickers. */
export const submissionSubmitterPath = (id: string) => `${submissionPath(id)}/submitter`

/** `GET` (admins): each chat app's file as far as it is judged without rendering. */
export const submissionFitPath = (id: string) => `${submissionPath(id)}/fit`
