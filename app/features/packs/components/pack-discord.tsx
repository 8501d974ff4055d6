import { Button, List, Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import type { DiscordUpload } from '../../../../contract/discord'
import { DISCORD_PROBLEM_TEXT, DISCORD_PROBLEMS, type DiscordProblem } from '../../../../contract/discord-problems'
import { useSession } from '../../../lib/session-provider'
import { clientConfigQueryOptions, discordOn } from '../../../lib/client-config'
import { discordUploadQueryOptions, useAddToDiscord } from '../discord-api'

/** `?discord=<job>` or `?discord_error=<why>`: where Discord's way back left the person (read after hydration). */
function useWayBack(): { jobId?: string; problem?: DiscordProblem } {
  const [found, setFound] = useState<{ jobId?: string; problem?: DiscordProblem }>({})
  useEffect(() => {
    const search = new URLSearchParams(window.location.search)
    const jobId = search.get('discord') ?? undefined
    const problem = search.get('discord_error') as DiscordProblem | null
    setFound({
      ...(jobId && /^[0-9a-f]{24}$/.test(jobId) ? { jobId } : {}),
      ...(problem && DISCORD_PROBLEMS.includes(problem) ? { problem } : {}),
    })
  }, [])
  return found
}

const counted = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`

function uploadedText(job: DiscordUpload): string {
  const stickers = job.uploaded.filter((u) => u.kind === 'sticker').length
  const emoji = job.uploaded.length - stickers
  const parts = [counted(stickers, 'sticker'), ...(emoji > 0 ? [`${emoji} emoji`] : [])]
  return parts.join(' and ')
}

/** The job's progress, then what was uploaded and what did not fit and why. */
function DiscordJob({ jobId }: { jobId: string }) {
  const job = useQuery(discordUploadQueryOptions(jobId))
  if (job.isError) {
    return (
      <Text size="sm" c="red.8" role="alert">
        This upload to Discord cannot be shown: {job.error.message}
      </Text>
    )
  }
  if (!job.data)
    return (
      <Text size="sm" c="dimmed">
        Looking up the upload to Discord…
      </Text>
    )
  const data = job.data
  const finished = data.state === 'done' || data.state === 'failed'
  return (
    <Stack gap={4}>
      <Text size="sm" role="status" c={data.state === 'failed' ? 'red.8' : undefined}>
        {data.state === 'done'
          ? `Uploaded ${uploadedText(data)} to your Discord server.`
          : data.state === 'failed'
            ? `The upload to Discord stopped after ${uploadedText(data)}: ${data.reason ?? 'no reason given'}`
            : `Uploading to your Discord server… ${uploadedText(data)} so far.${data.reason ? ` ${data.reason}.` : ''}`}
      </Text>
      {finished && data.notFitted.length > 0 && (
        <>
          <Text size="sm" fw={600}>
            Not uploaded ({data.notFitted.length}):
          </Text>
          <List size="sm" aria-label="Not uploaded to Discord">
            {data.notFitted.map((item) => (
              <List.Item key={`${item.kind}-${item.wumpusId}`}>
                {item.kind === 'emoji' ? 'Emoji' : 'Sticker'} “{item.name}”: {item.reason}
              </List.Item>
            ))}
          </List>
        </>
      )}
    </Stack>
  )
}

/**
 * "Add to my Discord server" (README: Discord app): asks the server for a ticket and goes to Discord, where the
 * person picks their server; back on this page with `?discord=<job>` it shows the upload. Absent while the
 * server has Discord off, and for visitors who are not signed in: the page they were served asks the API nothing
 * more (its server render holds every answer it needs), and only a signed-in person may upload.
 */
export function PackDiscord({ packId, go }: { packId: string; go?: (url: string) => void }) {
  const session = useSession()
  const signedIn = session.status === 'signed-in'
  const on = useQuery({ ...clientConfigQueryOptions(), select: discordOn, enabled: signedIn })
  const add = useAddToDiscord(packId, go)
  const { jobId, problem } = useWayBack()
  if (!signedIn || on.data !== true) return null
  return (
    <section aria-labelledby="pack-discord-heading">
      <Text component="h2" fw={700} size="lg" id="pack-discord-heading" mb="xs">
        Discord
      </Text>
      <Stack gap="xs" align="flex-start">
        <Button variant="default" loading={add.isPending} onClick={() => add.mutate()}>
          Add to my Discord server
        </Button>
        {add.isError && (
          <Text size="sm" c="red.8" role="alert">
            {add.error.message}
          </Text>
        )}
        {problem && (
          <Text size="sm" c="red.8" role="alert">
            {DISCORD_PROBLEM_TEXT[problem]}
          </Text>
        )}
        {jobId && <DiscordJob jobId={jobId} />}
      </Stack>
    </section>
  )
}
