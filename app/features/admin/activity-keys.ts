/**
 * The query keys of the admin activity log, on their own: pack writes invalidate it too, and importing
 * the admin API for them would bring the admin forms' contract (and its emoji data) into the packs pages.
 */
export const activityKeys = {
  all: ['activity'] as const,
}
