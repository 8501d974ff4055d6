import { z } from 'zod'

/**
 * The licences an animation may travel under, as SPDX ids (https://spdx.org/licenses/) where one exists;
 * `gallery-only` is ours: shown and shared here, not to be reused elsewhere. Animations stored before
 * licences existed are `gallery-only` with an empty credit (the gallery's own work).
 */
export const LICENCES = ['CC0-1.0', 'CC-BY-4.0', 'CC-BY-SA-4.0', 'gallery-only'] as const
export type Licence = (typeof LICENCES)[number]

/** The licence of animations that were given none. */
export const DEFAULT_LICENCE: Licence = 'gallery-only'

/** How each licence is named to people, everywhere (forms, detail page, pack READMEs). */
export const LICENCE_LABEL: Record<Licence, string> = {
  'CC0-1.0': 'CC0 1.0 (no rights reserved)',
  'CC-BY-4.0': 'CC BY 4.0 (credit the maker)',
  'CC-BY-SA-4.0': 'CC BY-SA 4.0 (credit the maker, share alike)',
  'gallery-only': 'This gallery only',
}

/** The licences in the order they are offered, with their labels. */
export const LICENCE_LABELS = LICENCES.map((key) => ({ key, label: LICENCE_LABEL[key] }))

export const licenceSchema = z.enum(LICENCES, { error: `Choose a licence: ${LICENCES.join(', ')}` })

export const CREDIT_MAX = 120

/** Who made it, as it should be credited ("Ana Lima", "@ana on Mastodon"); '' means the gallery itself. */
export const creditSchema = z.string().trim().max(CREDIT_MAX, `Credit should be at most ${CREDIT_MAX} characters`)

/** Where each licence's terms are read; `gallery-only` is ours and has no page of its own. */
export const LICENCE_URL: Record<Licence, string | undefined> = {
  'CC0-1.0': 'https://creativecommons.org/publicdomain/zero/1.0/',
  'CC-BY-4.0': 'https://creativecommons.org/licenses/by/4.0/',
  'CC-BY-SA-4.0': 'https://creativecommons.org/licenses/by-sa/4.0/',
  'gallery-only': undefined,
}
