// Where a submission stands (contract/submissions.ts has the rest). Apart from it so a route's search check
// can read the states without the submission schemas, which bring the emoji data (about 100 KB gzip) along.

/**
 * `waiting` for review, `changes` asked by a reviewer (the submitter edits it, and it waits again),
 * `refused` with a reason, `published` (it became an animation); withdrawn ones are deleted.
 */
export const SUBMISSION_STATES = ['waiting', 'changes', 'refused', 'published'] as const
export type SubmissionState = (typeof SUBMISSION_STATES)[number]

/** The states in which the submitter may still edit or withdraw it. */
export const SUBMISSION_EDITABLE_STATES: readonly SubmissionState[] = ['waiting', 'changes']
