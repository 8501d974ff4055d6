import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { SendStickerButton } from '../../../entities/wumpus/send-sticker-button'
import { FavouriteButton } from '../../../entities/favourite/favourite-button'
import { showToast } from '../../../lib/toast'
import { useCallback, useEffect, useState } from 'react'
import { errorMessage } from '../../../lib/error-message'
import { FORMAT_LABELS } from '../../../../contract/format-labels'
import { AnchorLink } from '../../../components/router-links'
import { apiGetBlob } from '../../../lib/api-client'
import { fileNameFromUrl, saveBlob } from '../../../lib/download'
import { usePageTitle } from '../../../lib/page-title'
import { formatBytes } from '../../../lib/format-bytes'
import {
  clearKeptDownloads,
  keptDownloadsUsage,
  subscribeKeptDownloads,
  type KeptDownloadsUsage,
} from '../../../lib/local-data/kept-downloads'
import type { SavedSticker } from '../../../lib/local-data/stores'
import { readKeptFile, removeFromOffline } from '../../../lib/local-data/saved-stickers'
import { useSavedStickers } from '../../../entities/saved-copy/use-saved-stickers'
import classes from './saved-page.module.css'
import { stickerAlt } from '../../../../contract/sticker-alt'

const FORMATS = FORMAT_LABELS

/** The browser's figures for this site's storage, refreshed whenever the saved stickers change. */
function useStorageEstimate(saved: unknown): StorageEstimate | null {
  const [estimate, setEstimate] = useState<StorageEstimate | null>(null)
  useEffect(() => {
    let current = true
    navigator.storage
      ?.estimate?.()
      .then((next) => current && setEstimate(next))
      .catch(() => {})
    return () => {
      current = false
    }
  }, [saved])
  return estimate
}

/** What the kept downloads take, read again whenever they or the saved stickers change. */
function useKeptDownloadsUsage(saved: unknown): KeptDownloadsUsage | null {
  const [usage, setUsage] = useState<KeptDownloadsUsage | null>(null)
  useEffect(() => {
    let current = true
    const read = () =>
      void keptDownloadsUsage().then(
        (next) => current && setUsage(next),
        () => {},
      )
    read()
    const unsubscribe = subscribeKeptDownloads(read)
    return () => {
      current = false
      unsubscribe()
    }
  }, [saved])
  return usage
}

/** Stickers saved on this device: preview, downloads that work offline, Remove, and storage used. */
export function SavedPage() {
  usePageTitle('Saved stickers')
  const saved = useSavedStickers()
  const estimate = useStorageEstimate(saved)
  const kept = useKeptDownloadsUsage(saved)
  const [clearing, setClearing] = useState(false)
  // Newest first (saves in the same millisecond: the later one first).
  const stickers = saved ? [...saved.values()].reverse().sort((a, b) => b.savedAt - a.savedAt) : []
  const savedBytes = stickers.reduce((sum, sticker) => sum + sticker.bytes, 0)

  async function clearKept() {
    setClearing(true)
    try {
      await clearKeptDownloads()
    } catch {
      showToast({ color: 'red', title: 'Could not clear them', message: 'Please try again.' })
    } finally {
      setClearing(false)
    }
  }

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>Saved stickers</Title>
        <Text>Stickers saved here open and download without a connection.</Text>
      </Stack>
      <Stack gap={2} aria-label="Storage" component="section">
        <Text size="sm">
          {stickers.length === 1 ? '1 sticker' : `${stickers.length} stickers`} saved, {formatBytes(savedBytes)}
        </Text>
        {kept && (
          <Group gap="sm" wrap="wrap">
            <Text size="sm">
              Kept downloads: {formatBytes(kept.bytes)} of {formatBytes(kept.budget)}
            </Text>
            <Button variant="default" size="compact-xs" loading={clearing} disabled={kept.files === 0} onClick={() => void clearKept()}>
              Clear kept downloads
            </Button>
          </Group>
        )}
        <Text size="xs" c="dimmed">
          Files you download are kept for offline use too; past the limit the least recently used go first. Saved stickers always stay.
        </Text>
        {estimate?.usage !== undefined && estimate.quota !== undefined && (
          <Text size="sm" c="dimmed">
            Storage used: {formatBytes(estimate.usage)} of {formatBytes(estimate.quota)} available to this site
          </Text>
        )}
      </Stack>
      {saved !== null && stickers.length === 0 ? (
        <Text>
          Nothing saved yet. Use Save for offline on any sticker in the <AnchorLink to="/">gallery</AnchorLink>.
        </Text>
      ) : (
        <SimpleGrid component="ul" cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" p={0} m={0} aria-label="Saved stickers">
          {stickers.map((sticker) => (
            <SavedStickerCard key={sticker.wumpus._id} sticker={sticker} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  )
}

function SavedStickerCard({ sticker }: { sticker: SavedSticker }) {
  const { wumpus } = sticker
  const preview = useKeptFileUrl(wumpus.gif)
  const [removing, setRemoving] = useState(false)
  const headingId = `saved-${wumpus._id}-name`

  async function remove() {
    setRemoving(true)
    try {
      await removeFromOffline(wumpus._id)
    } catch {
      setRemoving(false)
      showToast({ color: 'red', title: 'Could not remove it', message: 'Please try again.' })
    }
  }

  return (
    <Card component="li" withBorder padding="md" className={classes.card} aria-labelledby={headingId}>
      <Group wrap="nowrap" align="flex-start" gap="md">
        {preview && <img className={classes.preview} src={preview} alt={stickerAlt(wumpus)} width={96} height={96} />}
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Title order={2} size="h4" id={headingId} lineClamp={1}>
            {wumpus.name}
          </Title>
          <Text size="sm" c="dimmed">
            {formatBytes(sticker.bytes)}
          </Text>
          <Group gap="md">
            <AnchorLink to="/wumpus/$id" params={{ id: wumpus._id }} size="sm" aria-label={`Open ${wumpus.name}`}>
              Open
            </AnchorLink>
            <SendStickerButton url={wumpus.gif} description={`${wumpus.name} as a GIF`} variant="default" size="xs" />
            <FavouriteButton wumpus={wumpus} />
            <Button
              variant="default"
              size="xs"
              loading={removing}
              onClick={() => void remove()}
              aria-label={`Remove ${wumpus.name} from offline`}
            >
              Remove
            </Button>
          </Group>
        </Stack>
      </Group>
      <Group gap="xs" mt="md">
        <Text size="sm" fw={600} component="span">
          Download
        </Text>
        {FORMATS.map(({ key, label }) => (
          <KeptDownloadButton key={key} url={wumpus[key]} label={label} description={`${wumpus.name} as ${label}`} />
        ))}
      </Group>
    </Card>
  )
}

/** An object URL of the kept file (revoked when done), else the file's own URL. */
function useKeptFileUrl(url: string): string | null {
  const [objectUrl, setObjectUrl] = useState<string | null>(null)
  useEffect(() => {
    let created: string | null = null
    let current = true
    void readKeptFile(url).then((blob) => {
      if (!current) return
      created = blob ? URL.createObjectURL(blob) : null
      setObjectUrl(created ?? url)
    })
    return () => {
      current = false
      if (created) URL.revokeObjectURL(created)
    }
  }, [url])
  return objectUrl
}

/** Saves the kept copy under its original name; asks the network only if the copy is missing. */
function KeptDownloadButton({ url, label, description }: { url: string; label: string; description: string }) {
  const [busy, setBusy] = useState(false)
  const download = useCallback(async () => {
    setBusy(true)
    try {
      saveBlob((await readKeptFile(url)) ?? (await apiGetBlob(url)), fileNameFromUrl(url))
    } catch (error) {
      showToast({ color: 'red', title: 'Download failed', message: errorMessage(error, 'Please try again.') })
    } finally {
      setBusy(false)
    }
  }, [url])
  return (
    <Button size="xs" onClick={() => void download()} loading={busy} aria-label={`${label}: download ${description}`}>
      {label}
    </Button>
  )
}
