// "Add to my Discord server" (README: Discord app): why the way back from Discord made no job. The server sends
// the person back to the pack's page with `?discord_error=<code>`; the page says what happened.
export const DISCORD_PROBLEMS = ['denied', 'expired', 'unknown', 'used', 'refused', 'no-server'] as const
export type DiscordProblem = (typeof DISCORD_PROBLEMS)[number]

export const DISCORD_PROBLEM_TEXT: Record<DiscordProblem, string> = {
  denied: 'Discord was not given the go-ahead, so nothing was added.',
  expired: 'That took longer than 10 minutes: press “Add to my Discord server” again.',
  unknown: 'That link to Discord was not one this gallery made: press “Add to my Discord server” again.',
  used: 'That link to Discord was used already: press “Add to my Discord server” again to add the pack once more.',
  refused: 'Discord did not confirm the server: press “Add to my Discord server” again.',
  'no-server': 'Discord did not say which server to fill: press “Add to my Discord server” again and pick one.',
}
