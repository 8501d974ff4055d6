import { useComputedColorScheme, useMantineColorScheme } from '@mantine/core'
import { useMounted } from '@mantine/hooks'
import { PlainButton } from './plain-button'
import { StrokeIcon } from './stroke-icon'

export function ThemeToggle() {
  const { setColorScheme } = useMantineColorScheme()
  const computed = useComputedColorScheme('light')
  // The server renders the light theme's words; the stored choice is only known in the browser, so the
  // label follows it once mounted (the icons follow at once, by CSS), or hydration would not match.
  const current = useMounted() ? computed : 'light'
  const next = current === 'dark' ? 'light' : 'dark'
  return (
    <PlainButton
      shape="icon"
      variant="default"
      size="lg"
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
      onClick={() => setColorScheme(next)}
      // Before the app runs, index.html's script switches the theme on a tap.
      data-early-action="theme"
    >
      {/* Mantine's global classes: the icons follow the theme by CSS, before React knows it. */}
      <span className="mantine-light-hidden" style={{ height: 20 }}>
        <SunIcon />
      </span>
      <span className="mantine-dark-hidden" style={{ height: 20 }}>
        <MoonIcon />
      </span>
    </PlainButton>
  )
}

function SunIcon() {
  return (
    <StrokeIcon size={20}>
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </StrokeIcon>
  )
}

function MoonIcon() {
  return (
    <StrokeIcon size={20}>
      <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
    </StrokeIcon>
  )
}
