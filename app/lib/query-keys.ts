// Query keys that more than one feature uses: one reads the queries, others refresh them after a write (an
// animation edit refreshes every profile's list and the activity log). Other keys live with their queries.
/** Everything cached about one user starts with `all(email)`, so one invalidation refreshes it all. */
export const profileKeys = {
  everyone: ['profiles'] as const,
  all: (email: string) => [...profileKeys.everyone, email.trim().toLowerCase()] as const,
  detail: (email: string) => [...profileKeys.all(email), 'detail'] as const,
  animations: (email: string) => [...profileKeys.all(email), 'animations'] as const,
}

/** The admins' activity log: every admin write (animations, packs, roles, sessions) refreshes it. */
export const activityKeys = {
  all: ['activity'] as const,
}
