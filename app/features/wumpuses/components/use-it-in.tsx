import { Alert, Button, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import type { StickerExport } from '../../../../contract/stickers'
import { isApiError } from '../../../lib/api-client'
import { stickersQueryOptions } from '../../../entities/wumpus/api'
import { stickerSummary } from '../../../entities/wumpus/sticker-facts'
import { useFileDownload } from '../../../entities/wumpus/use-file-download'
import { StrokeIcon } from '../../../components/stroke-icon'
import { SendStickerButton } from '../../../entities/wumpus/send-sticker-button'

/** Detail page: one download per chat platform, each file made to that platform's sticker rules. */
export function UseItIn({ id, name }: { id: string; name: string }) {
  const stickers = useQuery(stickersQueryOptions(id))
  return (
    <section aria-labelledby="use-it-in-heading">
      <Title order={2} size="h4" id="use-it-in-heading" mb={4}>
        Use it in
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        Files made to each chat app&apos;s sticker rules, ready to add there.
      </Text>
      {stickers.isPending && <Loader size="sm" aria-label="Loading the chat app files" />}
      {stickers.isError && (
        <Alert color="gray" variant="light" role="status">
          {isApiError(stickers.error, 503)
            ? 'The chat app files are not on this device. Save the sticker for offline while you are online to keep them.'
            : 'The chat app files could not be loaded. Please try again later.'}
        </Alert>
      )}
      {stickers.data && (
        <SimpleGrid cols={{ base: 1, xs: 2, lg: 3 }} spacing="sm">
          {stickers.data.map((sticker) => (
            <PlatformDownload key={sticker.platform} sticker={sticker} name={name} />
          ))}
        </SimpleGrid>
      )}
    </section>
  )
}

function PlatformDownload({ sticker, name }: { sticker: StickerExport; name: string }) {
  const { busy, download } = useFileDownload()
  const summary = stickerSummary(sticker)
  const ready = sticker.status === 'ready' && sticker.url !== null
  const state = ready ? summary : sticker.status === 'pending' ? 'Being made…' : 'Not available'
  return (
    <Stack gap={4}>
      <Button
        variant={ready ? 'light' : 'default'}
        h="auto"
        py={8}
        justify="flex-start"
        fullWidth
        disabled={!ready}
        loading={busy}
        onClick={() => ready && void download(sticker.url!, sticker.fileName ?? undefined)}
        aria-label={ready ? `${sticker.label}: download ${name} as ${summary}` : `${sticker.label}: ${state}`}
        leftSection={sticker.status === 'pending' ? <Loader size={14} /> : <DownloadIcon />}
      >
        <Stack gap={0} align="flex-start">
          <Text span fw={600} size="sm" inherit>
            {sticker.label}
          </Text>
          <Text span size="xs" c={ready ? undefined : 'dimmed'}>
            {state}
          </Text>
        </Stack>
      </Button>
      {ready && sticker.contentType && (
        <SendStickerButton
          url={sticker.url!}
          fileName={sticker.fileName ?? undefined}
          description={`${name} as ${summary} for ${sticker.label}`}
          onlyIfShareable={sticker.contentType}
          variant="default"
          size="compact-sm"
          fullWidth
        />
      )}
      {ready && sticker.emoji.length > 0 && (
        <Text size="xs" c="dimmed">
          Goes with <span className="emoji-text">{sticker.emoji.join(' ')}</span>
        </Text>
      )}
      {sticker.notes.length > 0 && (
        <Text size="xs" c="dimmed">
          {sticker.notes.join('. ')}
        </Text>
      )}
    </Stack>
  )
}

function DownloadIcon() {
  return (
    <StrokeIcon>
      <path d="M12 4v12m0 0-5-5m5 5 5-5M5 20h14" />
    </StrokeIcon>
  )
}
