// The caption font in the browser: the same Fredoka file the server sets captions in, read by the same
// adapter (contract/remix/caption-font.ts), so the preview draws a caption as the files will. opentype.js
// and the font load only when the editor asks.
import { queryOptions } from '@tanstack/react-query'
import { captionFontFrom, type CaptionFontWithCoverage } from '../../../contract/remix/caption-font'

async function loadCaptionFont(): Promise<CaptionFontWithCoverage> {
  const [{ parse }, { default: url }] = await Promise.all([
    import('opentype.js'),
    import('@fontsource/fredoka/files/fredoka-latin-600-normal.woff?url'),
  ])
  const response = await fetch(url)
  if (!response.ok) throw new Error(`The caption font did not load (HTTP ${response.status})`)
  return captionFontFrom(parse(await response.arrayBuffer()))
}

export const captionFontQueryOptions = () =>
  queryOptions({ queryKey: ['caption-font'], queryFn: loadCaptionFont, staleTime: Infinity, gcTime: Infinity })
