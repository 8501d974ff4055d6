import { Alert, Button, Group, Loader, Radio, Slider, Stack, Switch, Text, TextInput, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { CAPTION_MAX, CAPTION_POSITIONS, type CaptionPosition } from '../../../../contract/remix/caption'
import { captionRefusal } from '../../../../contract/remix/caption-font'
import { SPEED_MAX, SPEED_MIN } from '../../../../contract/remix/motion'
import type { Recipe } from '../../../../contract/remix/recipe'
import { defaultRemixName, REMIX_NAME_MAX, remixNameSchema } from '../../../../contract/remix/remix-name'
import type { Wumpus } from '../../../../contract/wumpus'
import { AnchorLink } from '../../../components/router-links'
import { usePageTitle } from '../../../lib/page-title'
import { colourChoicesQueryOptions, useCreateRemix } from '../api'
import { captionFontQueryOptions } from '../caption-font'
import { formatSpeed } from '../../../../contract/remix/recipe-text'
import { remixErrorMessage } from '../remix-errors'
import { useRecipeHistory } from '../use-recipe-history'
import { ColourSwatches } from './colour-swatches'
import { RemixPreview } from './remix-preview'
import classes from './remix-editor.module.css'

const OUTLINE_CHOICES = [
  { value: 'recommended', label: 'Where the chat app recommends it (WhatsApp, Telegram)' },
  { value: 'on', label: 'On every file' },
  { value: 'off', label: 'Off' },
] as const
type OutlineChoice = (typeof OUTLINE_CHOICES)[number]['value']

const outlineChoice = (outline: boolean | undefined): OutlineChoice => (outline === undefined ? 'recommended' : outline ? 'on' : 'off')
const outlineOf = (choice: string): boolean | undefined => (choice === 'recommended' ? undefined : choice === 'on')

/** Leaves out what equals the original, so the address holds only real edits. */
function tidy(recipe: Recipe): Recipe {
  const next = { ...recipe }
  if (next.colours && Object.keys(next.colours).length === 0) delete next.colours
  if (next.speed === 1) delete next.speed
  if (!next.mirror) delete next.mirror
  if (!next.caption) delete next.caption
  if (next.outline === undefined) delete next.outline
  return next
}

interface RemixEditorProps {
  original: Wumpus
  recipe: Recipe
  /** Puts the recipe in the page address. */
  onRecipe: (recipe: Recipe) => void
}

/** "Make it yours": colours, caption, outline, speed and mirror over a live preview, then the files. */
export function RemixEditor({ original, recipe, onRecipe }: RemixEditorProps) {
  usePageTitle(`Make ${original.name} yours`)
  const navigate = useNavigate()
  const choices = useQuery(colourChoicesQueryOptions(original._id))
  const history = useRecipeHistory(recipe, onRecipe)
  const create = useCreateRemix(original._id)
  const change = (edit: Partial<Recipe>, run?: string) => history.change(tidy({ ...recipe, ...edit }), run)
  const [name, setName] = useState(() => defaultRemixName(original.name))
  const nameCheck = remixNameSchema.safeParse(name)
  const nameProblem = nameCheck.success ? undefined : nameCheck.error.issues[0]?.message
  // What the caption fonts cannot draw is refused while it is typed, with the reason the server would give.
  const font = useQuery({ ...captionFontQueryOptions(), enabled: recipe.caption !== undefined })
  const captionProblem = recipe.caption && font.data ? captionRefusal(recipe.caption.text, font.data) : undefined

  // The caption box keeps what is typed (a space before the next word); the recipe holds it trimmed.
  const [captionText, setCaptionText] = useState(recipe.caption?.text ?? '')
  const [position, setPosition] = useState<CaptionPosition>(recipe.caption?.position ?? 'bottom')
  useEffect(() => {
    if (captionText.trim() !== (recipe.caption?.text ?? '')) setCaptionText(recipe.caption?.text ?? '')
    if (recipe.caption) setPosition(recipe.caption.position)
    // Only an outside change (Undo, Reset, a link) sets the box.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [recipe.caption])

  function typeCaption(text: string) {
    setCaptionText(text)
    change({ caption: text.trim() ? { text, position } : undefined }, 'caption')
  }

  function choosePosition(next: CaptionPosition) {
    setPosition(next)
    if (recipe.caption) change({ caption: { ...recipe.caption, position: next } })
  }

  function setColour(slotId: string, colour: string) {
    const slot = choices.data?.slots.find((s) => s.id === slotId)
    const colours = { ...recipe.colours }
    if (slot && slot.colour.toLowerCase() === colour) delete colours[slotId]
    else colours[slotId] = colour
    change({ colours }, `colour:${slotId}`)
  }

  function setPreset(preset: Record<string, string>) {
    const slots = choices.data?.slots ?? []
    change({ colours: Object.fromEntries(slots.filter((s) => preset[s.id]).map((s) => [s.id, preset[s.id]!.toLowerCase()])) })
  }

  // Ctrl+Z (Cmd+Z) anywhere but in a text box, which keeps its own undo.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.shiftKey || event.key.toLowerCase() !== 'z') return
      const target = event.target as HTMLElement | null
      if (target instanceof HTMLInputElement && target.type === 'text') return
      if (target instanceof HTMLTextAreaElement) return
      event.preventDefault()
      history.undo()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  })

  async function makeStickers() {
    const { id } = await create.mutateAsync({ ...recipe, name: nameCheck.data })
    await navigate({ to: '/wumpus/$id', params: { id } })
  }

  return (
    <Stack gap="lg">
      <AnchorLink to="/wumpus/$id" params={{ id: original._id }} size="sm">
        ← Back to {original.name}
      </AnchorLink>
      <Title order={1}>Make {original.name} yours</Title>
      <div className={classes.layout}>
        <RemixPreview lottieUrl={original.lottie} name={original.name} recipe={recipe} />
        <Stack gap="lg">
          {choices.isError ? (
            <Alert color="red" variant="light" title="The colours did not load">
              {remixErrorMessage(choices.error)}
            </Alert>
          ) : choices.data ? (
            <ColourSwatches choices={choices.data} colours={recipe.colours ?? {}} onColour={setColour} onPreset={setPreset} />
          ) : (
            <Text size="sm">Loading the colours…</Text>
          )}

          <section aria-labelledby="caption-heading">
            <Title order={2} size="h4" id="caption-heading" mb="xs">
              Caption
            </Title>
            <TextInput
              label="Caption text"
              value={captionText}
              maxLength={CAPTION_MAX}
              description={`${captionText.length}/${CAPTION_MAX} characters`}
              error={captionProblem}
              onChange={(event) => typeCaption(event.currentTarget.value)}
            />
            <Radio.Group label="Caption position" value={position} onChange={(value) => choosePosition(value)} mt="xs">
              <Group gap="lg" mt={4}>
                {CAPTION_POSITIONS.map((value) => (
                  <Radio key={value} value={value} label={value === 'top' ? 'Top' : 'Bottom'} />
                ))}
              </Group>
            </Radio.Group>
          </section>

          <Radio.Group
            label="White outline"
            value={outlineChoice(recipe.outline)}
            onChange={(value) => change({ outline: outlineOf(value) })}
          >
            <Stack gap="xs" mt="xs">
              {OUTLINE_CHOICES.map((choice) => (
                <Radio key={choice.value} value={choice.value} label={choice.label} />
              ))}
            </Stack>
          </Radio.Group>

          <div>
            <Group justify="space-between">
              <Text size="sm" fw={500} aria-hidden>
                Speed
              </Text>
              <Text size="sm" aria-hidden>
                {formatSpeed(recipe.speed ?? 1)}
              </Text>
            </Group>
            <Slider
              min={SPEED_MIN}
              max={SPEED_MAX}
              step={0.25}
              value={recipe.speed ?? 1}
              label={formatSpeed}
              thumbLabel="Speed"
              thumbValueText={formatSpeed}
              marks={[{ value: SPEED_MIN }, { value: 1 }, { value: SPEED_MAX }]}
              onChange={(speed) => change({ speed }, 'speed')}
            />
          </div>

          <Switch
            label="Mirror (flip left to right)"
            aria-label="Mirror (flip left to right)"
            checked={recipe.mirror ?? false}
            onChange={(event) => change({ mirror: event.currentTarget.checked })}
          />

          <Group gap="sm">
            <Button variant="default" onClick={history.undo} disabled={!history.canUndo}>
              Undo
            </Button>
            <Button variant="default" onClick={history.reset} disabled={!history.isEdited}>
              Reset
            </Button>
          </Group>

          <TextInput
            label="Name of your version"
            description="Its files are named after it"
            value={name}
            maxLength={REMIX_NAME_MAX}
            error={nameProblem}
            onChange={(event) => setName(event.currentTarget.value)}
          />

          {create.isError && (
            <Alert color="red" variant="light" title="Your stickers were not made" role="alert">
              {remixErrorMessage(create.error)}
            </Alert>
          )}
          <Group>
            <Button
              size="md"
              onClick={() => void makeStickers().catch(() => {})}
              disabled={create.isPending || captionProblem !== undefined || nameProblem !== undefined}
              leftSection={create.isPending ? <Loader size="xs" aria-hidden /> : undefined}
            >
              {create.isPending ? 'Making your stickers…' : 'Make my stickers'}
            </Button>
          </Group>
        </Stack>
      </div>
    </Stack>
  )
}
