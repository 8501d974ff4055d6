import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import {
  mySubmissionListPath,
  submissionDecisionPath,
  submissionPath,
  submissionQueuePath,
  SUBMISSIONS_PATH,
  submissionFitPath,
  submissionSubmitterPath,
} from '../../../contract/submission-paths'
import {
  submissionCreatedSchema,
  submissionListSchema,
  submissionFitSchema,
  submitterRecordSchema,
  type SubmissionDecisionBody,
} from '../../../contract/submissions'
import { type SubmissionState } from '../../../contract/submission-states'
import { apiRequest, apiSend } from '../../lib/api-client'
import { fetchPage } from '../../lib/paging'
import type { SubmissionValues } from './submission-values'

export const submissionKeys = {
  all: ['submissions'] as const,
  mine: () => [...submissionKeys.all, 'mine'] as const,
  queue: (state: SubmissionState) => [...submissionKeys.all, 'queue', state] as const,
  submitter: (id: string) => [...submissionKeys.all, 'submitter', id] as const,
  fit: (id: string) => [...submissionKeys.all, 'fit', id] as const,
}

/** GET /api/me/submissions: one's own submissions, newest first, a page at a time. */
export const mySubmissionsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: submissionKeys.mine(),
    queryFn: ({ pageParam, signal }) => fetchPage(mySubmissionListPath({ cursor: pageParam }), submissionListSchema, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  })

/** GET /api/submissions?state= (admins): the review queue, oldest first. */
export const submissionQueueQueryOptions = (state: SubmissionState = 'waiting') =>
  infiniteQueryOptions({
    queryKey: submissionKeys.queue(state),
    queryFn: ({ pageParam, signal }) => fetchPage(submissionQueuePath(state, { cursor: pageParam }), submissionListSchema, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  })

/** GET /api/submissions/{id}/submitter (admins): the submitter's other submissions and the open reports against their stickers. */
export const submitterQueryOptions = (id: string) =>
  queryOptions({
    queryKey: submissionKeys.submitter(id),
    queryFn: ({ signal }) => apiRequest(submissionSubmitterPath(id), submitterRecordSchema, { signal }),
  })

/** GET /api/submissions/{id}/fit (admins): each chat app's file as far as it is judged without rendering. */
export const submissionFitQueryOptions = (id: string) =>
  queryOptions({
    queryKey: submissionKeys.fit(id),
    queryFn: ({ signal }) => apiRequest(submissionFitPath(id), submissionFitSchema, { signal }),
  })

/** The form's values as the multipart fields POST and PUT /api/submissions take (one field per list item). */
function submissionForm(values: SubmissionValues, file: Blob | undefined, fileName: string): FormData {
  const form = new FormData()
  form.append('name', values.name.trim())
  form.append('description', values.description.trim())
  for (const tag of values.tags) form.append('tags', tag)
  for (const emoji of values.emoji) form.append('emoji', emoji)
  for (const keyword of values.keywords) form.append('keywords', keyword)
  form.append('licence', values.licence)
  form.append('credit', values.credit.trim())
  form.append('source', values.source.trim())
  form.append('original', String(values.original === 'mine'))
  form.append('sensitive', String(values.sensitive))
  if (file) form.append('file', file, fileName)
  return form
}

interface SendSubmission {
  values: SubmissionValues
  file?: Blob
  fileName: string
  onProgress?: (fraction: number) => void
}

/** POST /api/submissions (new) or PUT /api/submissions/{id} (an edit; the file only when a new one was picked). */
export function useSendSubmission(id?: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ values, file, fileName, onProgress }: SendSubmission) => {
      const body = submissionForm(values, file, fileName)
      const options = { body, onUploadProgress: onProgress ?? (() => {}) }
      return id
        ? apiSend(submissionPath(id), { ...options, method: 'PUT' }).then(() => ({ id }))
        : apiRequest(SUBMISSIONS_PATH, submissionCreatedSchema, { ...options, method: 'POST' })
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: submissionKeys.all }),
  })
}

/** DELETE /api/submissions/{id}: the submitter withdraws one still waiting or asked to change. */
export function useWithdrawSubmission() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => apiSend(submissionPath(id), { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: submissionKeys.all }),
  })
}

/** POST /api/submissions/{id}/decision (admins): publish, ask for changes or refuse, with a note. */
export function useDecideSubmission() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, ...body }: SubmissionDecisionBody & { id: string }) => apiSend(submissionDecisionPath(id), { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: submissionKeys.all }),
  })
}
