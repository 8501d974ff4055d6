import type { Submission } from '../../contract/submissions'

export function makeSubmission(n: number, overrides: Partial<Submission> = {}): Submission {
  return {
    id: String(n).padStart(24, 'f'),
    state: 'waiting',
    name: `Sticker ${n}`,
    description: `The ${n}th sticker`,
    tags: ['wave'],
    emoji: [{ char: '👋', name: 'waving hand' }],
    keywords: [],
    licence: 'CC-BY-4.0',
    credit: 'Ada',
    source: '',
    original: true,
    sensitive: false,
    u_email: 'ada@example.com',
    u_name: 'Ada',
    lottie: `/api/files/${String(n).padStart(24, 'a')}/sticker.json`,
    createdAt: '2026-12-01T10:00:00.000Z',
    updatedAt: '2026-12-01T10:00:00.000Z',
    ...overrides,
  }
}
