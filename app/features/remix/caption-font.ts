// The caption font in the browser: the same files the server sets captions in, read by the same adapter
// (contract/remix/caption-font.ts), so the preview draws a caption as the files will. opentype.js and the
// fonts load only when the editor asks.
import { queryOptions } from '@tanstack/react-query'
import {
  CAPTION_FONT_FILES,
  captionFontFrom,
  type CaptionFontFile,
  type CaptionFontWithCoverage,
} from '../../../contract/remix/caption-font'

/** Each caption font file's URL in the build; typed by the contract's list, so the two cannot differ. */
export const CAPTION_FONT_URLS: Record<CaptionFontFile, () => Promise<{ default: string }>> = {
  '@fontsource/fredoka/files/fredoka-latin-600-normal.woff': () => import('@fontsource/fredoka/files/fredoka-latin-600-normal.woff?url'),
  '@fontsource/fredoka/files/fredoka-latin-ext-600-normal.woff': () =>
    import('@fontsource/fredoka/files/fredoka-latin-ext-600-normal.woff?url'),
  '@fontsource/comfortaa/files/comfortaa-latin-ext-700-normal.woff': () =>
    import('@fontsource/comfortaa/files/comfortaa-latin-ext-700-normal.woff?url'),
  '@fontsource/comfortaa/files/comfortaa-greek-700-normal.woff': () =>
    import('@fontsource/comfortaa/files/comfortaa-greek-700-normal.woff?url'),
  '@fontsource/comfortaa/files/comfortaa-cyrillic-700-normal.woff': () =>
    import('@fontsource/comfortaa/files/comfortaa-cyrillic-700-normal.woff?url'),
  '@fontsource/comfortaa/files/comfortaa-cyrillic-ext-700-normal.woff': () =>
    import('@fontsource/comfortaa/files/comfortaa-cyrillic-ext-700-normal.woff?url'),
  '@fontsource/comfortaa/files/comfortaa-vietnamese-700-normal.woff': () =>
    import('@fontsource/comfortaa/files/comfortaa-vietnamese-700-normal.woff?url'),
}

async function loadCaptionFont(): Promise<CaptionFontWithCoverage> {
  const [{ parse }, ...files] = await Promise.all([
    import('opentype.js'),
    ...CAPTION_FONT_FILES.map(async (file) => {
      const { default: url } = await CAPTION_FONT_URLS[file]()
      const response = await fetch(url)
      if (!response.ok) throw new Error(`The caption font did not load (HTTP ${response.status})`)
      return response.arrayBuffer()
    }),
  ])
  return captionFontFrom(files.map((bytes) => parse(bytes)))
}

export const captionFontQueryOptions = () =>
  queryOptions({ queryKey: ['caption-font'], queryFn: loadCaptionFont, staleTime: Infinity, gcTime: Infinity })
