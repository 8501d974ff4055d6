import type { Submission, SubmitterRecord } from '../../../../contract/submissions'
import type { SubmitterHistory } from '../../services/submissions'
import type { SubmissionRecord } from '../../store/port'
import { fileUrl } from './file'

/** A stored submission as its submitter and admins see it (contract/submissions.ts). */
export function toApiSubmission(record: SubmissionRecord): Submission {
  return {
    id: record.id,
    state: record.state,
    name: record.name,
    description: record.description,
    tags: record.tags,
    emoji: record.emoji,
    keywords: record.keywords,
    licence: record.licence,
    credit: record.credit,
    source: record.source,
    original: record.original,
    sensitive: record.sensitive,
    u_email: record.u_email,
    u_name: record.u_name,
    ...(record.file ? { lottie: fileUrl(record.file) } : {}),
    ...(record.note === undefined ? {} : { note: record.note }),
    ...(record.wumpusId === undefined ? {} : { wumpusId: record.wumpusId }),
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  }
}

/** A submitter's history beside a submission in the review queue. */
export function toApiSubmitter(history: SubmitterHistory): SubmitterRecord {
  return {
    u_email: history.u_email,
    u_name: history.u_name,
    counts: { ...history.counts },
    recent: history.recent.map((record) => ({
      id: record.id,
      name: record.name,
      state: record.state,
      ...(record.wumpusId === undefined ? {} : { wumpusId: record.wumpusId }),
      createdAt: record.createdAt.toISOString(),
    })),
    reports: { ...history.reports },
  }
}
