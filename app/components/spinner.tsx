import type { CSSProperties } from 'react'
import classes from './spinner.module.css'

interface SpinnerProps {
  size?: 'xs' | 'sm' | 'md'
  /** Its accessible name; without one it is hidden from assistive technology (say it in words nearby). */
  label?: string
  /** CSS colour of the ring; the primary colour unless told (buttons pass their text colour, as Mantine's do). */
  color?: string
}

/** A spinning ring that looks like Mantine's Loader, without Mantine's component code (home route budget). */
export function Spinner({ size = 'md', label, color }: SpinnerProps) {
  return (
    <span
      className={classes.spinner}
      data-size={size}
      style={color ? ({ '--color': color } as CSSProperties) : undefined}
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
    />
  )
}
