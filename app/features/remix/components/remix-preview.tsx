import { Center, Loader, Switch, Text } from '@mantine/core'
import { useReducedMotion } from '@mantine/hooks'
import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense, useMemo, useState } from 'react'
import type { CaptionFont } from '../../../../contract/remix/caption'
import { applyRecipe, type Recipe } from '../../../../contract/remix/recipe'
import type { Lottie } from '../../../../contract/remix/lottie-walk'
import { lottieJsonQueryOptions } from '../../../lib/lottie-json'
import { captionFontQueryOptions } from '../caption-font'
import { describeRecipe } from '../../../../contract/remix/recipe-text'
import classes from './remix-editor.module.css'

const LottiePlayer = lazy(() => import('../../../components/lottie-player'))

/** Never asked for: without a caption the recipe draws no text. */
const NO_FONT: CaptionFont = { getPath: () => ({ commands: [] }), getAdvanceWidth: () => 0 }

/**
 * The edited sticker, live: the recipe applied to the original Lottie by the function the server runs.
 * With the outline left to the chat apps, a switch shows the file those apps get.
 */
export function RemixPreview({ lottieUrl, name, recipe }: { lottieUrl: string; name: string; recipe: Recipe }) {
  const reducedMotion = useReducedMotion()
  const original = useQuery(lottieJsonQueryOptions(lottieUrl))
  const font = useQuery({ ...captionFontQueryOptions(), enabled: recipe.caption !== undefined })
  const [outlinedView, setOutlinedView] = useState(false)
  const [failed, setFailed] = useState(false)
  const outline = recipe.outline ?? outlinedView
  const waitsForFont = recipe.caption !== undefined && !font.data

  const edited = useMemo(() => {
    if (!original.data) return undefined
    const shown = waitsForFont ? { ...recipe, caption: undefined } : recipe
    try {
      return applyRecipe(original.data as unknown as Lottie, shown, { font: font.data ?? NO_FONT, outline })
    } catch {
      return undefined
    }
  }, [original.data, recipe, font.data, waitsForFont, outline])

  const state = original.isError
    ? 'The preview could not load. Your edits still apply to the files.'
    : !edited
      ? 'Loading the preview…'
      : `Preview: ${describeRecipe(recipe, outline)}${!waitsForFont ? '' : font.isError ? ' (the caption font did not load here; your files still get the caption)' : ' (the caption appears once its font has loaded)'}.`

  return (
    <div className={classes.previewColumn}>
      <div className={classes.preview}>
        {edited && !failed ? (
          <Suspense fallback={<PreviewLoader />}>
            <LottiePlayer
              data={edited}
              playing={!reducedMotion}
              label={`Preview of your version of ${name}`}
              onReady={() => {}}
              onError={() => setFailed(true)}
            />
          </Suspense>
        ) : original.isError || failed ? null : (
          <PreviewLoader />
        )}
      </div>
      <Switch
        mt="sm"
        label="Show the file with outline"
        // Mantine's switch has two labels (its track and its text): the name is said once here.
        aria-label="Show the file with outline"
        description={
          recipe.outline === undefined
            ? 'As WhatsApp and Telegram get it'
            : recipe.outline
              ? 'Every file has the outline'
              : 'No file has the outline'
        }
        checked={outline}
        disabled={recipe.outline !== undefined}
        onChange={(event) => setOutlinedView(event.currentTarget.checked)}
      />
      <Text size="sm" c="dimmed" mt="xs" role="status" aria-live="polite">
        {state}
      </Text>
    </div>
  )
}

function PreviewLoader() {
  return (
    <Center h="100%">
      <Loader size="sm" aria-hidden />
    </Center>
  )
}
