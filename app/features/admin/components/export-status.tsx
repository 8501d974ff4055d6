import { Alert, Badge, Card, Group, Loader, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import type { StickerExport } from '../../../../contract/stickers'
import { stickersQueryOptions } from '../../../entities/wumpus/api'
import { stickerSummary } from '../../../entities/wumpus/sticker-facts'

const STATUS: Record<StickerExport['status'], { label: string; color: string }> = {
  ready: { label: 'Made', color: 'green' },
  absent: { label: 'Missing', color: 'red' },
  pending: { label: 'Being made', color: 'gray' },
}

/**
 * Admin pages: which platform exports the server made for an animation, what each gave up to fit,
 * and why any is missing. Follows the server while they are still being made.
 */
export function ExportStatus({ id }: { id: string }) {
  const stickers = useQuery(stickersQueryOptions(id))
  const pending = stickers.data?.some((s) => s.status === 'pending') ?? false
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="exports-heading">
      <Group justify="space-between" mb={4}>
        <Title order={2} size="h4" id="exports-heading">
          Platform exports
        </Title>
        {pending && <Loader size="xs" aria-label="Exports are being made" />}
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        Made from the Lottie for each chat app&apos;s sticker rules{pending ? '; this page follows them as they are made.' : '.'}
      </Text>
      {stickers.isPending && <Loader size="sm" />}
      {stickers.isError && (
        <Alert color="red" variant="light" role="alert">
          The exports could not be loaded. Reload the page to try again.
        </Alert>
      )}
      {stickers.data && (
        <Stack gap="xs" component="ul" role="list" p={0} m={0} style={{ listStyle: 'none' }}>
          {stickers.data.map((sticker) => (
            <Group
              key={sticker.platform}
              component="li"
              gap="sm"
              wrap="nowrap"
              align="flex-start"
              aria-label={`${sticker.label}: ${STATUS[sticker.status].label}`}
            >
              <Badge color={STATUS[sticker.status].color} variant="light" w={116} style={{ flexShrink: 0 }}>
                {STATUS[sticker.status].label}
              </Badge>
              <Stack gap={0}>
                <Text size="sm" fw={600}>
                  {sticker.label}
                  {sticker.status === 'ready' && (
                    <Text span size="sm" fw={400} c="dimmed">
                      {' '}
                      {stickerSummary(sticker)}
                    </Text>
                  )}
                </Text>
                {sticker.notes.length > 0 && sticker.status !== 'pending' && (
                  <Text size="xs" c={sticker.status === 'absent' ? 'red' : 'dimmed'}>
                    {sticker.notes.join('. ')}
                  </Text>
                )}
              </Stack>
            </Group>
          ))}
        </Stack>
      )}
    </Card>
  )
}
