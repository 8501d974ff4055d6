import { Button, Stack, Text } from '@mantine/core'
import type { PackDownload } from '../../../../contract/pack'
import { listInWords, partsInWords } from '../../../../contract/pack-parts'
import { formatBytes } from '../../../lib/format-bytes'
import { useNeedsNetwork } from '../../../components/needs-network'
import { stickerCount } from '../pack-text'
import classes from './packs.module.css'

/**
 * One ZIP per chat app, or one per part where the app takes the pack only in smaller packs (said before
 * any download). A pack the app does not take shows why instead of a button (the server refuses it the
 * same way); the browser streams a ZIP straight to disk through a plain download link.
 */
export function PackDownloads({ packName, downloads }: { packName: string; downloads: PackDownload[] }) {
  const network = useNeedsNetwork()
  return (
    <section aria-labelledby="pack-downloads-heading">
      <Text component="h2" fw={700} size="lg" id="pack-downloads-heading" mb="xs">
        Download for your chat app
      </Text>
      {network.note}
      <ul className={classes.downloads}>
        {downloads.map((download) => (
          <li key={download.platform} className={classes.download}>
            <Stack gap={2} style={{ flex: '1 1 220px', minWidth: 0 }}>
              <Text fw={600}>{download.label}</Text>
              <Text size="sm" c="dimmed">
                {download.fits ? `${stickerCount(download.stickers)} · about ${formatBytes(download.bytes)}` : download.message}
              </Text>
              {download.fits && download.parts.length > 1 && (
                <Text size="sm">
                  Comes as {partsInWords(download.platform, download.parts.length)}:{' '}
                  {listInWords(download.parts.map((part) => part.stickers))} stickers
                </Text>
              )}
              {download.fits && download.missing > 0 && (
                <Text size="sm" c="dimmed">
                  {download.missing === 1 ? '1 sticker has' : `${download.missing} stickers have`} no {download.label} file yet and
                  {download.missing === 1 ? ' is' : ' are'} left out.
                </Text>
              )}
              {download.platform === 'whatsapp' && download.fits && (
                <Text size="sm">
                  On a phone, open the .wastickers file with a sticker maker app to add the pack to WhatsApp; the ZIP holds the same files.
                </Text>
              )}
              {download.notes.map((note) => (
                <Text key={note} size="sm" c="yellow.9" className="pack-note">
                  {note}
                </Text>
              ))}
            </Stack>
            {download.fits && download.parts.length > 1 && (
              <ul className={classes.parts}>
                {download.parts.map((part) => (
                  <li key={part.part}>
                    <Button
                      component="a"
                      href={part.url}
                      download={part.fileName}
                      variant="light"
                      disabled={!network.online}
                      rightSection={
                        <Text span size="xs">
                          {formatBytes(part.bytes)}
                        </Text>
                      }
                      aria-label={`Part ${part.part} of ${download.parts.length}: ${packName} for ${download.label}, ${part.stickers}${part.still ? ' still' : ''} ${part.stickers === 1 ? 'sticker' : 'stickers'} (ZIP)`}
                    >
                      Part {part.part} of {download.parts.length}
                    </Button>
                    {part.wastickers && (
                      <Button
                        component="a"
                        href={part.wastickers.url}
                        download={part.wastickers.fileName}
                        variant="subtle"
                        size="compact-sm"
                        disabled={!network.online}
                        aria-label={`.wastickers, part ${part.part} of ${download.parts.length}: ${packName} for a sticker maker app`}
                      >
                        .wastickers
                      </Button>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {download.fits && download.parts.length <= 1 && (
              <Button
                component="a"
                href={download.url}
                download={download.fileName}
                variant="light"
                disabled={!network.online}
                aria-label={`Download ZIP: ${packName} for ${download.label}`}
              >
                Download ZIP
              </Button>
            )}
            {download.fits && download.parts.length <= 1 && download.wastickers && (
              <Button
                component="a"
                href={download.wastickers.url}
                download={download.wastickers.fileName}
                variant="subtle"
                disabled={!network.online}
                aria-label={`.wastickers: ${packName} for a sticker maker app`}
              >
                .wastickers
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}
