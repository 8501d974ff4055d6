import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { PackImport } from '../../../../contract/pack-imports'
import { renderWithProviders } from '../../../test/render-with-providers'
import { PackImports } from './pack-imports'

const ID = 'b'.repeat(24)

function item(format: PackImport['format'], label: string, overrides: Partial<PackImport> = {}): PackImport {
  const fileName = `kind-wumpuses.${format}-emoji.${format === 'mastodon' ? 'tar.gz' : 'zip'}`
  return {
    format,
    label,
    url: `/api/packs/${ID}/download/${format}`,
    fileName,
    fits: true,
    message: null,
    emoji: 12,
    skipped: 0,
    bytes: 12 * 40_000,
    notes: [],
    pleroma: null,
    ...overrides,
  }
}

const pleromaSource = {
  packName: 'wumpus_kind_wumpuses',
  manifestUrl: `/api/packs/${ID}/pleroma/manifest.json`,
  packJsonUrl: `/api/packs/${ID}/pleroma/pack.json`,
}

const entry = (label: string) => screen.getByText(label, { selector: 'p' }).closest('li')!

describe('PackImports', () => {
  it("offers each server's archive with a short import guide, and the commands to run", async () => {
    renderWithProviders(
      <PackImports
        packName="Kind Wumpuses"
        imports={[
          item('misskey', 'Misskey'),
          item('mastodon', 'Mastodon', { emoji: 11, skipped: 1, notes: ['1 sticker is left out: “Big” (too big).'] }),
          item('pleroma', 'Pleroma / Akkoma', { pleroma: pleromaSource }),
        ]}
      />,
    )
    expect(await screen.findByRole('heading', { name: 'Custom emoji for your server' })).toBeInTheDocument()

    const misskey = within(entry('Misskey'))
    expect(misskey.getByText(/Control panel → Custom emojis, then the ⋯ menu → Import/)).toBeInTheDocument()
    expect(misskey.getByRole('link', { name: 'Download ZIP: Kind Wumpuses as Misskey custom emoji' })).toHaveAttribute(
      'href',
      `/api/packs/${ID}/download/misskey`,
    )

    const mastodon = within(entry('Mastodon'))
    expect(mastodon.getByText(/an admin runs the command below with this file/)).toBeInTheDocument()
    expect(mastodon.getByText("tootctl emoji import --category 'Kind Wumpuses' kind-wumpuses.mastodon-emoji.tar.gz")).toBeInTheDocument()
    expect(mastodon.getByText('1 sticker is left out: “Big” (too big).')).toBeInTheDocument()
    expect(mastodon.getByRole('link', { name: /^Download tar\.gz: / })).toHaveAttribute('download', 'kind-wumpuses.mastodon-emoji.tar.gz')

    const pleroma = within(entry('Pleroma / Akkoma'))
    expect(pleroma.getByText(/checks its SHA-256/)).toBeInTheDocument()
    expect(
      pleroma.getByText(
        `pleroma_ctl emoji get-packs -m ${window.location.origin}/api/packs/${ID}/pleroma/manifest.json wumpus_kind_wumpuses`,
      ),
    ).toBeInTheDocument()
  })

  it('says a private pack has no address to pull from, and why a pack without emoji has no download', async () => {
    renderWithProviders(
      <PackImports
        packName="Mine"
        imports={[
          item('misskey', 'Misskey', { fits: false, message: 'None of this pack’s stickers has an emoji file for Misskey yet.', emoji: 0 }),
          item('pleroma', 'Pleroma / Akkoma'),
        ]}
      />,
    )
    await screen.findByRole('heading', { name: 'Custom emoji for your server' })
    const misskey = within(entry('Misskey'))
    expect(misskey.getByText('None of this pack’s stickers has an emoji file for Misskey yet.')).toBeInTheDocument()
    expect(misskey.queryByRole('link')).toBeNull()
    expect(misskey.queryByText(/Control panel/)).toBeNull()
    const pleroma = within(entry('Pleroma / Akkoma'))
    expect(pleroma.getByText(/This pack is private, so no other server can fetch it/)).toBeInTheDocument()
    expect(pleroma.queryByText(/pleroma_ctl/)).toBeNull()
  })
})
