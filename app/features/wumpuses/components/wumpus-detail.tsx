import { LICENCE_LABEL } from '../../../../contract/licence'
import { Anchor, Badge, Grid, Group, Stack, Text, Title } from '@mantine/core'
import { useReducedMotion } from '@mantine/hooks'
import { useSuspenseQuery } from '@tanstack/react-query'
import type { DragEvent, ReactNode } from 'react'
import type { Wumpus } from '../../../../contract/wumpus'
import { wumpusStillPath } from '../../../../contract/api-paths'
import { FORMAT_LABELS } from '../../../../contract/format-labels'
import { AnchorLink } from '../../../components/router-links'
import { fileNameFromUrl } from '../../../lib/download'
import { isKeyedUrl } from '../../../lib/pwa/personal-caches'
import { usePageTitle } from '../../../lib/page-title'
import { FavouriteButton } from '../../../entities/favourite/favourite-button'
import { SaveOfflineButton } from '../../../entities/saved-copy/save-offline-button'
import { StickerPicture } from '../../../entities/wumpus/sticker-picture'
import { CopyImageButton } from '../../../components/copy-image-button'
import { ShareButton } from '../../../components/share-button'
import { profilePath } from '../../../lib/paths'
import { useHoverOrFocus } from '../../../lib/use-hover-or-focus'
import { wumpusQueryOptions } from '../../../entities/wumpus/api'
import { DownloadButton } from './download-button'
import { SendStickerButton } from '../../../entities/wumpus/send-sticker-button'
import { EmojiChips, TagChips } from './tag-chips'
import { UseItIn } from './use-it-in'
import classes from './wumpus-detail.module.css'

const FORMATS = FORMAT_LABELS

interface WumpusDetailProps {
  id: string
  /** What its route places under the name (a remix: whose version of which original). */
  underName?: (wumpus: Wumpus) => ReactNode
  /** What its route places after the downloads (an original: Make it yours). */
  afterDownloads?: (wumpus: Wumpus) => ReactNode
  /** What its route places last (Report a problem). */
  atEnd?: (wumpus: Wumpus) => ReactNode
}

export function WumpusDetail({ id, underName, afterDownloads, atEnd }: WumpusDetailProps) {
  const { data: wumpus } = useSuspenseQuery(wumpusQueryOptions(id))
  usePageTitle(wumpus.name)
  const pointedAt = useHoverOrFocus()
  // Under reduced motion the still can be focused, so keyboard users can play it like pointer users.
  const reducedMotion = useReducedMotion()

  return (
    <Stack gap="lg">
      <AnchorLink to="/" size="sm">
        ← Back to the gallery
      </AnchorLink>
      <Grid gap="xl" align="flex-start">
        <Grid.Col span={{ base: 12, sm: 'content' }}>
          <div
            className={classes.previewFrame}
            tabIndex={reducedMotion ? 0 : undefined}
            // A private remix's file URLs carry its key: nothing of it is dragged out of the page.
            draggable={!isKeyedUrl(wumpus.gif)}
            onDragStart={(event) => (isKeyedUrl(wumpus.gif) ? event.preventDefault() : dragAsFile(event, wumpus.gif))}
            {...pointedAt.handlers}
          >
            <StickerPicture
              wumpus={wumpus}
              frameClassName={classes.previewPicture}
              className={classes.preview}
              eager
              active={pointedAt.active}
            />
          </div>
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 'auto' }}>
          <Stack gap="lg">
            <Stack gap="xs">
              <Title order={1}>{wumpus.name}</Title>
              {wumpus.sensitive && (
                // Out of lists for most people, yet opened by a link: the page says why it may surprise.
                <Group gap="xs">
                  <Badge color="red" variant="light" size="lg">
                    Sensitive
                  </Badge>
                  <Text size="sm" c="dimmed">
                    Marked sensitive: hidden from the gallery and search unless you turn sensitive stickers on in your profile.
                  </Text>
                </Group>
              )}
              {underName?.(wumpus)}
              <Text>{wumpus.description}</Text>
              <TagChips tags={(wumpus.tags ?? []).map((tag) => ({ tag, count: 0 }))} search={{}} label="Tags" counts={false} />
              <EmojiChips emoji={(wumpus.emoji ?? []).map((emoji) => ({ ...emoji, count: 0 }))} search={{}} label="Emoji" />
              {(wumpus.keywords ?? []).length > 0 && (
                <Text size="sm" c="dimmed">
                  Keywords: {wumpus.keywords.join(', ')}
                </Text>
              )}
              <div>
                <Text size="sm" c="dimmed">
                  {downloadsLabel(wumpus.downloads ?? 0)}
                </Text>
                {/* One's own download may not move the count (docs/product.md#downloads): say so. */}
                <Text size="xs" c="dimmed">
                  Downloads count once per person a day.
                </Text>
              </div>
              <Group gap="sm" mt="xs">
                <FavouriteButton wumpus={wumpus}>Favourite</FavouriteButton>
                <SendStickerButton url={wumpus.gif} description={`${wumpus.name} as a GIF`} />
                {/* A remix is shared by its owner, by link (RemixFacts). */}
                {wumpus.remixOf === undefined && (
                  <ShareButton
                    title={wumpus.name}
                    text={wumpus.description}
                    url={new URL(`/wumpus/${wumpus._id}`, window.location.origin).href}
                  />
                )}
                <CopyImageButton
                  url={wumpusStillPath(wumpus._id)}
                  type="image/png"
                  label="Copy still"
                  description={`${wumpus.name} as a still PNG`}
                />
                <CopyImageButton url={wumpus.gif} type="image/gif" label="Copy GIF" description={`${wumpus.name} as a GIF`} />
              </Group>
            </Stack>

            <section aria-labelledby="view-heading">
              <Title order={2} size="h4" id="view-heading" mb="xs">
                View in format
              </Title>
              <Group gap="lg">
                {FORMATS.map(({ key, label }) => (
                  <Anchor
                    key={key}
                    href={wumpus[key]}
                    draggable={isKeyedUrl(wumpus[key]) ? false : undefined}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`${label}: view ${wumpus.name} in a new tab`}
                  >
                    {label}
                  </Anchor>
                ))}
              </Group>
            </section>

            <section aria-labelledby="download-heading">
              <Title order={2} size="h4" id="download-heading" mb="xs">
                Download in format
              </Title>
              <Group gap="sm">
                {FORMATS.map(({ key, label }) => (
                  <DownloadButton key={key} url={wumpus[key]} label={label} description={`${wumpus.name} as ${label}`} />
                ))}
              </Group>
              <SaveOfflineButton wumpus={wumpus} mt="sm" />
            </section>

            <UseItIn id={wumpus._id} name={wumpus.name} />

            {afterDownloads?.(wumpus)}

            <section aria-labelledby="author-heading">
              <Title order={2} size="h4" id="author-heading" mb="xs">
                Animation by
              </Title>
              {/* A remix's maker who is not a contributor is named without their email, and has no public profile. */}
              {wumpus.u_email ? <Anchor href={profilePath(wumpus.u_email)}>{wumpus.u_name}</Anchor> : <Text>{wumpus.u_name}</Text>}
              {wumpus.credit && wumpus.credit !== wumpus.u_name && (
                <Text size="sm" mt={4}>
                  Made by {wumpus.credit}
                </Text>
              )}
              <Text size="sm" c="dimmed" mt={4}>
                Licence: {LICENCE_LABEL[wumpus.licence]}
              </Text>
            </section>

            {atEnd?.(wumpus)}
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  )
}

/** Dragged out of the page (to the desktop, a chat window), the sticker lands as its GIF file where the browser can. */
function dragAsFile(event: DragEvent<HTMLElement>, gif: string): void {
  const url = new URL(gif, window.location.origin).href
  event.dataTransfer.setData('DownloadURL', `image/gif:${fileNameFromUrl(gif)}:${url}`)
  event.dataTransfer.setData('text/uri-list', url)
  event.dataTransfer.effectAllowed = 'copy'
}

/** "Downloaded 1,234 times", or an invitation when nobody has yet. */
export function downloadsLabel(count: number): string {
  if (count === 0) return 'Not downloaded yet: be the first'
  return `Downloaded ${count.toLocaleString('en-US')} ${count === 1 ? 'time' : 'times'}`
}
