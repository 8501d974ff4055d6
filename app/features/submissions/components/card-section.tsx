import { Button, Stack } from '@mantine/core'
import { useId, useState, type ReactNode } from 'react'

/**
 * A review card's section that is closed at first: its button names it (`show`, then `hide`), and its panel
 * (`children`, which loads what it shows) is only mounted once opened.
 */
export function CardSection({ show, hide, label, children }: { show: string; hide: string; label: string; children: ReactNode }) {
  const [open, setOpen] = useState(false)
  const panel = useId()
  return (
    <Stack gap={4}>
      <Button
        size="xs"
        variant="subtle"
        style={{ alignSelf: 'flex-start' }}
        aria-expanded={open}
        aria-controls={panel}
        onClick={() => setOpen((was) => !was)}
      >
        {open ? hide : show}
      </Button>
      {open && (
        <div id={panel} role="region" aria-label={label}>
          {children}
        </div>
      )}
    </Stack>
  )
}
