import { Button, Code, Stack, Text } from '@mantine/core'
import { useSyncExternalStore } from 'react'
import type { ImportFormat, PackImport } from '../../../../contract/pack-imports'
import { formatBytes } from '../../../lib/format-bytes'
import { useNeedsNetwork } from '../../../components/needs-network'
import classes from './packs.module.css'

/** How an admin of each server brings the pack in (menu names and commands read from each server's source). */
const GUIDES: Record<ImportFormat, string> = {
  misskey:
    'In Misskey, an admin opens Control panel → Custom emojis, then the ⋯ menu → Import, and picks this ZIP. Each emoji keeps its name, tags as aliases, and its maker as its licence.',
  mastodon:
    'On the Mastodon server, an admin runs the command below with this file. Each GIF becomes an emoji named after it (:waving_wumpus:), grouped under the pack’s name.',
  pleroma:
    'On the Pleroma or Akkoma server, an admin runs the command below; it fetches the pack from here, checks its SHA-256 and installs it.',
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`

/** The command for each server (the file name or URL filled in); Pleroma's once the site's address is known. */
function command(item: PackImport, packName: string, origin: string | null): string | null {
  if (item.format === 'mastodon') return `tootctl emoji import --category ${shellQuote(packName)} ${item.fileName}`
  if (item.format === 'pleroma' && item.pleroma && origin !== null)
    return `pleroma_ctl emoji get-packs -m ${origin}${item.pleroma.manifestUrl} ${item.pleroma.packName}`
  return null
}

const noSubscription = () => () => {}

/**
 * The pack as community servers import custom emoji (Misskey, Mastodon, Pleroma / Akkoma): one archive each,
 * with a sentence or two on how an admin brings it in. A private pack has no address another server pulls
 * from: Pleroma's command shows once the pack is shared by link.
 */
export function PackImports({ packName, imports }: { packName: string; imports: PackImport[] }) {
  const network = useNeedsNetwork()
  // The server renders the page knowing no origin, and hydration must render what it did: Pleroma's command,
  // which holds the address, comes just after.
  const origin = useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => null,
  )
  if (imports.length === 0) return null
  return (
    <section aria-labelledby="pack-imports-heading">
      <Text component="h2" fw={700} size="lg" id="pack-imports-heading" mb="xs">
        Custom emoji for your server
      </Text>
      <ul className={classes.downloads}>
        {imports.map((item) => {
          const run = item.fits ? command(item, packName, origin) : null
          return (
            <li key={item.format} className={classes.download}>
              <Stack gap={4} style={{ flex: '1 1 260px', minWidth: 0 }}>
                <Text fw={600}>{item.label}</Text>
                <Text size="sm" c="dimmed">
                  {item.fits ? `${item.emoji} emoji · about ${formatBytes(item.bytes)}` : item.message}
                </Text>
                {item.fits && (
                  <Text size="sm" className="import-guide">
                    {GUIDES[item.format]}
                  </Text>
                )}
                {run && (
                  <Code block className={classes.command}>
                    {run}
                  </Code>
                )}
                {item.fits && item.format === 'pleroma' && !item.pleroma && (
                  <Text size="sm" className="import-guide">
                    This pack is private, so no other server can fetch it: share it by link for the command, or unpack the ZIP into the
                    server’s emoji folder yourself.
                  </Text>
                )}
                {item.notes.map((note) => (
                  <Text key={note} size="sm" c="yellow.9" className="pack-note">
                    {note}
                  </Text>
                ))}
              </Stack>
              {item.fits && (
                <Button
                  component="a"
                  href={item.url}
                  download={item.fileName}
                  variant="light"
                  disabled={!network.online}
                  aria-label={`Download ${item.format === 'mastodon' ? 'tar.gz' : 'ZIP'}: ${packName} as ${item.label} custom emoji`}
                >
                  {item.format === 'mastodon' ? 'Download tar.gz' : 'Download ZIP'}
                </Button>
              )}
            </li>
          )
        })}
      </ul>
    </section>
  )
}
