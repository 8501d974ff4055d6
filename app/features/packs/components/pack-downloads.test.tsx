import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import type { PackDetail, PackDownload } from '../../../../contract/pack'
import { makeWumpuses } from '../../../test/fixtures'
import { server } from '../../../test/msw-server'
import { renderApp } from '../../../test/render-app'

const ID = 'a'.repeat(24)
const items = makeWumpuses(1, 35)

function download(platform: PackDownload['platform'], label: string, overrides: Partial<PackDownload> = {}): PackDownload {
  return {
    platform,
    label,
    url: `/api/packs/${ID}/download/${platform}`,
    fileName: `split-pack.${platform}.zip`,
    fits: true,
    message: null,
    stickers: 35,
    missing: 0,
    bytes: 35 * 100_000,
    notes: [],
    parts: [],
    wastickers: null,
    ...overrides,
  }
}

const whatsappParts = [16, 15, 4].map((stickers, i) => ({
  part: i + 1,
  url: `/api/packs/${ID}/download/whatsapp?part=${i + 1}`,
  fileName: `split-pack.whatsapp.part-${i + 1}-of-3.zip`,
  stickers,
  bytes: stickers * 100_000,
  still: i === 2,
  wastickers: { url: `/api/packs/${ID}/download/wastickers?part=${i + 1}`, fileName: `split-pack.part-${i + 1}-of-3.wastickers` },
}))

const pack: PackDetail = {
  id: ID,
  name: 'Split Pack',
  description: '',
  coverWumpusId: items[0]!._id,
  wumpusIds: items.map((item) => item._id),
  cover: items[0]!,
  visibility: 'public',
  createdBy: 'boss@example.com',
  createdAt: '2026-11-22T10:00:00.000Z',
  updatedAt: '2026-11-22T10:00:00.000Z',
  items,
  downloads: [
    download('whatsapp', 'WhatsApp', {
      parts: whatsappParts,
      notes: [
        'WhatsApp keeps still and animated stickers in separate packs of at most 30: this pack comes as 3 packs of 16 animated, 15 animated and 4 still stickers.',
      ],
    }),
    download('signal', 'Signal'),
    download('line', 'LINE', { fits: false, message: 'LINE sets have 8, 16 or 24 stickers; this pack has 7.', stickers: 7 }),
  ],
}

describe('pack downloads', () => {
  it('says how a pack comes split before any download and offers one button per part; a pack in one ZIP keeps its one button', async () => {
    server.use(http.get(`/api/packs/${ID}`, () => HttpResponse.json(pack)))
    renderApp(`/packs/${ID}`)
    await screen.findByRole('heading', { level: 1, name: 'Split Pack' })

    const whatsapp = screen.getByText('WhatsApp', { selector: 'p' }).closest('li')!
    expect(within(whatsapp).getByText('Comes as 3 WhatsApp packs: 16, 15 and 4 stickers')).toBeInTheDocument()
    expect(within(whatsapp).getByText(/keeps still and animated stickers in separate packs/)).toBeInTheDocument()
    const parts = within(whatsapp).getAllByRole('link', { name: /\(ZIP\)$/ })
    expect(parts.map((link) => link.getAttribute('aria-label'))).toEqual([
      'Part 1 of 3: Split Pack for WhatsApp, 16 stickers (ZIP)',
      'Part 2 of 3: Split Pack for WhatsApp, 15 stickers (ZIP)',
      'Part 3 of 3: Split Pack for WhatsApp, 4 still stickers (ZIP)',
    ])
    // Each part also as the .wastickers file sticker maker apps open, with a sentence on how.
    const wastickers = within(whatsapp).getAllByRole('link', { name: /^\.wastickers, part/ })
    expect(wastickers.map((link) => [link.getAttribute('href'), link.getAttribute('download')])).toEqual(
      whatsappParts.map((part) => [part.wastickers.url, part.wastickers.fileName]),
    )
    expect(within(whatsapp).getByText(/open the \.wastickers file with a sticker maker app/)).toBeInTheDocument()
    expect(parts.map((link) => [link.getAttribute('href'), link.getAttribute('download')])).toEqual(
      whatsappParts.map((part) => [part.url, part.fileName]),
    )
    ;[
      ['Part 1 of 3', '1.5 MB'],
      ['Part 2 of 3', '1.4 MB'],
      ['Part 3 of 3', '390.6 KB'],
    ].forEach(([label, size], i) => {
      expect(within(parts[i]!).getByText(label!)).toBeInTheDocument()
      expect(within(parts[i]!).getByText(size!)).toBeInTheDocument()
    })
    expect(within(whatsapp).queryByText('Download ZIP')).not.toBeInTheDocument()

    const signal = screen.getByRole('link', { name: 'Download ZIP: Split Pack for Signal' })
    expect(signal).toHaveAttribute('href', `/api/packs/${ID}/download/signal`)
    expect(signal).toHaveTextContent('Download ZIP')
    expect(screen.queryByText(/Comes as .* Signal/)).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: /Signal.*\.wastickers/ })).not.toBeInTheDocument()

    expect(screen.getByText('LINE sets have 8, 16 or 24 stickers; this pack has 7.')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: /for LINE/ })).not.toBeInTheDocument()
  })
})
