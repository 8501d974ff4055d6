import type { MediaFormat } from './limits'

/** How each animation format is named to people, everywhere: buttons, forms, messages, the activity log. */
export const FORMAT_LABEL: Record<MediaFormat, string> = { gif: 'GIF', apng: 'APNG', lottie: 'Lottie' }

/** The formats in the order they are shown, with their labels. */
export const FORMAT_LABELS = (['gif', 'apng', 'lottie'] as const).map((key) => ({ key, label: FORMAT_LABEL[key] }))
