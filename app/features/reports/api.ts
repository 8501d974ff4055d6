import { infiniteQueryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { REPORT_DECISION_PATH, reportGroupsPath, REPORTS_PATH } from '../../../contract/report-paths'
import {
  reportCreatedSchema,
  reportDecidedSchema,
  reportGroupListSchema,
  type NewReportBody,
  type ReportDecisionBody,
  type ReportState,
} from '../../../contract/reports'
import { tagKeys, wumpusKeys } from '../../entities/wumpus/api'
import { apiRequest } from '../../lib/api-client'
import { fetchPage } from '../../lib/paging'

export const reportKeys = {
  all: ['reports'] as const,
  groups: (state: ReportState) => [...reportKeys.all, 'groups', state] as const,
}

/** GET /api/reports?state= (admins): reports grouped by what they are against, the most reported first. */
export const reportGroupsQueryOptions = (state: ReportState = 'open') =>
  infiniteQueryOptions({
    queryKey: reportKeys.groups(state),
    queryFn: ({ pageParam, signal }) => fetchPage(reportGroupsPath(state, { cursor: pageParam }), reportGroupListSchema, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  })

/** POST /api/reports: anyone says a sticker or a shared pack has a problem. */
export function useSendReport() {
  return useMutation({
    mutationFn: (body: NewReportBody) => apiRequest(REPORTS_PATH, reportCreatedSchema, { method: 'POST', body }),
  })
}

/**
 * POST /api/reports/decision (admins): decides every open report against one sticker or pack. Hide, restore
 * and delete change what the gallery, tags and the sticker's page show: those are read again too.
 */
export function useDecideReports() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: ReportDecisionBody) => apiRequest(REPORT_DECISION_PATH, reportDecidedSchema, { method: 'POST', body }),
    onSuccess: (_, body) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: reportKeys.all }),
        ...(body.decision === 'dismiss'
          ? []
          : [queryClient.invalidateQueries({ queryKey: wumpusKeys.all }), queryClient.invalidateQueries({ queryKey: tagKeys.all })]),
      ]),
  })
}
