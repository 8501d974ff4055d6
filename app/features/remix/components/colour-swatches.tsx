import { Button, Group, Stack, Text, Title } from '@mantine/core'
import type { ColourChoices } from '../../../../contract/remix/recipe'
import classes from './remix-editor.module.css'

interface ColourSwatchesProps {
  choices: ColourChoices
  /** The recipe's colours by slot id. */
  colours: Record<string, string>
  onColour: (slotId: string, colour: string) => void
  onPreset: (colours: Record<string, string>) => void
}

/** The sticker's colour slots, each a swatch that opens the browser's colour picker, and the presets. */
export function ColourSwatches({ choices, colours, onColour, onPreset }: ColourSwatchesProps) {
  return (
    <section aria-labelledby="colours-heading">
      <Title order={2} size="h4" id="colours-heading" mb="xs">
        Colours
      </Title>
      {choices.slots.length === 0 ? (
        <Text size="sm">This sticker has no colours to change.</Text>
      ) : (
        <Stack gap="sm">
          <Group gap="xs" component="ul" className={classes.swatches}>
            {choices.slots.map((slot, index) => {
              const colour = colours[slot.id] ?? slot.colour
              return (
                <li key={slot.id}>
                  <input
                    type="color"
                    className={classes.swatch}
                    value={colour}
                    aria-label={`Colour ${index + 1}: ${colour}`}
                    title={`Colour ${index + 1}: ${colour}`}
                    onChange={(event) => onColour(slot.id, event.currentTarget.value.toLowerCase())}
                  />
                </li>
              )
            })}
          </Group>
          {choices.presets.length > 0 && (
            <Group gap="xs" role="group" aria-label="Colour presets">
              {choices.presets.map((preset) => (
                <Button key={preset.id} variant="default" size="xs" onClick={() => onPreset(preset.colours)}>
                  {preset.name}
                </Button>
              ))}
            </Group>
          )}
        </Stack>
      )}
    </section>
  )
}
